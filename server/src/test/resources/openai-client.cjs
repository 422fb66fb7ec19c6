// Drives polyrag's OpenAI-compatible routes with the official openai npm client; prints one JSON line.
const OpenAI = require('openai');

async function main() {
  const [baseURL, apiKey] = process.argv.slice(2);
  const client = new OpenAI({ baseURL, apiKey, maxRetries: 0, timeout: 60000 });
  const question = [{ role: 'system', content: 'Answer from the sources.' },
    { role: 'user', content: 'Where did Marie Curie work?' }];
  const models = await client.models.list();
  const plain = await client.chat.completions.create({ model: 'polyrag/lab', messages: question, temperature: 0 });
  const stream = await client.chat.completions.create({ model: 'polyrag/lab', messages: question, stream: true });
  let streamed = '';
  let streamSources = null;
  let finish = null;
  for await (const chunk of stream) {
    streamed += chunk.choices[0]?.delta?.content || '';
    finish = chunk.choices[0]?.finish_reason || finish;
    if (chunk.sources) streamSources = chunk.sources;
  }
  // A question the sources do not cover: the reply says so, plain and streamed, instead of an empty bubble.
  const uncovered = [{ role: 'user', content: 'zebra migration patterns' }];
  const none = await client.chat.completions.create({ model: 'polyrag/lab', messages: uncovered });
  let noneStreamed = '';
  for await (const chunk of await client.chat.completions.create({ model: 'polyrag/lab', messages: uncovered,
    stream: true })) {
    noneStreamed += chunk.choices[0]?.delta?.content || '';
  }
  let missingStatus = null;
  try {
    await client.chat.completions.create({ model: 'polyrag/nope', messages: question });
  } catch (e) {
    missingStatus = e.status;
  }
  console.log(JSON.stringify({
    models: models.data.map((m) => m.id),
    answer: plain.choices[0].message.content,
    role: plain.choices[0].message.role,
    finish: plain.choices[0].finish_reason,
    sources: plain.sources.map((s) => s.title),
    streamed,
    streamFinish: finish,
    streamSources: (streamSources || []).map((s) => s.title),
    missingStatus,
    none: none.choices[0].message.content,
    noneStreamed,
  }));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
