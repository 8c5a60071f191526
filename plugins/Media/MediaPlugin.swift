// MediaPlugin
