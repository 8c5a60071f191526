// NSECurl
