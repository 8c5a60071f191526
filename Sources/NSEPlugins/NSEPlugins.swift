// NSEPlugins
