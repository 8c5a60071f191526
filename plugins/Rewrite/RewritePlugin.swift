// RewritePlugin
