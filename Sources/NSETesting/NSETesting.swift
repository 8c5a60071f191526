// NSETesting
