import NSECore

extension ModifierPlugin {
    /// `decrypt`: decrypts a WebPush (`aes128gcm`, `aesgcm`) or JWE ciphertext in the payload.
    ///
    /// Options: `keys` (a JWK Set file, relative to the configuration file; required) and
    /// `field` (the payload key holding the ciphertext; default `enc`).
    public static let decrypt = ModifierPlugin(
        name: "decrypt", summary: "decrypts a WebPush (aes128gcm, aesgcm) or JWE ciphertext with keys from a JWK Set"
    ) { options, environment in
        try options.checkKeys(["keys", "field"])
        guard let keysNode = options["keys"] else {
            throw options.error("decrypt needs a key set, e.g. { keys: keys.jwks.json } (a JWK Set file, see docs/decrypt.md)")
        }
        let path = try keysNode.filePath()
        let keys: KeySet
        do {
            keys = try KeySet(contentsOfFile: path)
        } catch let error as DecryptError {
            throw keysNode.error(error.message)
        }
        for reason in keys.skipped {
            environment.logger.warning("decrypt: a key in \(path) is not used: \(reason)")
        }
        var field = "enc"
        if let fieldNode = options["field"] {
            field = try fieldNode.string()
            guard !field.isEmpty else { throw fieldNode.error("the field name must not be empty") }
        }
        return DecryptModifier(keys: keys, field: field)
    }
}
