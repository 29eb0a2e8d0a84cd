/// The text of `tally help`.
enum TallyHelp {
    static let text = """
    tally — in-app purchases from the device to the server

    USAGE
      tally sandbox <command> [options]   a simulated App Store driven by a .storekit file
      tally market [options] [COMMAND]    the demo shop (coins, premium, restore) over the sandbox
      tally verify [options] [FILE|-]     verify App Store signed data and receipts
      tally serve --data DIR --config F   the entitlement server; 'tally serve key' makes an API key
      tally help                          this text; add --help to any command for its own
      tally --version                     the version of Tally this tally was built from

    Exit codes: 0 ok, 1 refused or failed, 2 usage error or bad input.
    """
}
