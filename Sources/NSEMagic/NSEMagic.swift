// NSEMagic
