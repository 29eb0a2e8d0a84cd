// TallyVerify
