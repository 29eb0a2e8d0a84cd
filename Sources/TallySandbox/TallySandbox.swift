// TallySandbox
