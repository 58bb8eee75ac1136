/// Loopback, spelled every way a URL allows.
package func loopbackSpellings(port: Int) -> [String] {
    ["127.0.0.1", "127.1", "0x7f.1", "0x7f000001", "2130706433", "017700000001", "[::1]", "0.0.0.0", "localhost",
     "[::ffff:127.0.0.1]", "127.0.0.2"].map { "http://\($0):\(port)/image" }
}
