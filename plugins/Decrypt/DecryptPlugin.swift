// DecryptPlugin
