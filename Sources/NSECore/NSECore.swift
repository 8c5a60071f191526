// NSECore
