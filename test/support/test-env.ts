// Environment every test file starts from (a Jest setupFile), also loaded by the global setup so the
// DynamoDB Local it starts sees the same. Defaults only: a test or the caller may still override them.
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
