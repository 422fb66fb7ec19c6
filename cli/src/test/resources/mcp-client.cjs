// Drives polyrag's MCP server with the official TypeScript SDK client and prints one JSON line of what it saw.
// Usage: node mcp-client.cjs stdio '<json: {command, args, env}>' FILE | node mcp-client.cjs http|sse URL FILE
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { SSEClientTransport } = require('@modelcontextprotocol/sdk/client/sse.js');

async function main() {
  const [mode, target, file] = process.argv.slice(2);
  const transport = mode === 'stdio' ? new StdioClientTransport({ ...JSON.parse(target), stderr: 'inherit' })
    : mode === 'sse' ? new SSEClientTransport(new URL(target))
    : new StreamableHTTPClientTransport(new URL(target));
  const client = new Client({ name: 'polyrag-test', version: '1.0.0' });
  await client.connect(transport);
  const out = { server: client.getServerVersion(), instructions: client.getInstructions() };
  const call = async (name, args) => {
    const r = await client.callTool({ name, arguments: args });
    return { isError: r.isError === true, envelope: JSON.parse(r.content[0].text), structured: r.structuredContent };
  };
  out.tools = (await client.listTools()).tools.map(t => ({ name: t.name, description: t.description,
    schema: t.inputSchema }));
  out.health = await call('check_backend_health', {});
  out.configuration = await call('describe_configuration', {});
  out.ingested = await call('ingest_raw_text', { text: 'The lighthouse of Quillon Point was built in 1871 by '
    + 'Ada Ferrow. Its lamp burns whale oil and can be seen from forty kilometres.', title: 'Quillon Point light',
    knowledge_base: 'coast' });
  out.job = await call('start_document_ingest', { paths: file, config: '{"knowledge_base": "coast"}' });
  const job = out.job.envelope.data && out.job.envelope.data.job_id;
  for (let i = 0; job && i < 240; i++) {
    out.status = await call('check_ingest_status', { job_id: job });
    if (['succeeded', 'partial', 'failed', 'canceled'].includes(out.status.envelope.data.status)) break;
    await new Promise(r => setTimeout(r, 250));
  }
  out.bases = await call('list_knowledge_bases', {});
  out.search = await call('hybrid_search', { query: 'who built the lighthouse of Quillon Point', knowledge_base: 'coast',
    top_k: '3' });
  out.answer = await call('answer_question', { question: 'When was the Quillon Point lighthouse built?',
    knowledge_base: ['coast'] });
  out.deleted = await call('delete_document', { document_id: out.ingested.envelope.data.document_id });
  out.after = await call('hybrid_search', { query: 'Quillon Point lighthouse whale oil', knowledge_base: 'coast' });
  out.badTopK = await call('hybrid_search', { query: 'x', top_k: 'lots' });
  out.badConfig = await call('hybrid_search', { query: 'x', config: '{not json' });
  out.missingPath = await call('start_document_ingest', { paths: '["/nonexistent/polyrag-file.md"]' });
  out.unknownJob = await call('check_ingest_status', { job_id: 'no-such-job' });
  try {
    const r = await client.callTool({ name: 'no_such_tool', arguments: {} });
    out.unknownTool = { returned: true, isError: r.isError === true, text: r.content && r.content[0] && r.content[0].text };
  } catch (e) {
    out.unknownTool = { threw: true, message: String(e.message) };
  }
  await client.close();
  console.log(JSON.stringify(out));
}

main().catch(e => { console.error(e && e.stack || e); process.exit(1); });
