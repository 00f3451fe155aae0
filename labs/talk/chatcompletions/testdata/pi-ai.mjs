// pi-ai.mjs feeds every stream of this directory (*.sse) to pi-ai 0.83.0's
// Chat Completions client, as a server would send it, and writes what pi-ai
// made of each to pi-ai.json: the reply's text, its thinking, its tool
// calls and its stop reason. It also writes there what pi-ai's
// parseStreamingJson makes of each text of arguments.json, as the
// arguments of a tool call. TestFixturesReadAsPiAiReadsThem and
// TestArgumentsReadAsPiAiReadsThem compare the package with it. It is a
// maintainer's script: go test never runs node.
//
// Run it from this directory after a change to a fixture, with pi-ai and the
// two packages it needs here unpacked anywhere outside the repository:
//
//	mkdir -p /tmp/pi/node_modules && cd /tmp/pi
//	npm pack @earendil-works/pi-ai@0.83.0 openai@6.26.0 partial-json@0.1.7
//	for p in earendil-works-pi-ai-0.83.0 openai-6.26.0 partial-json-0.1.7; do
//	  mkdir -p node_modules/$p && tar xzf $p.tgz -C node_modules/$p --strip-components 1
//	done
//	mv node_modules/earendil-works-pi-ai-0.83.0 node_modules/pi-ai
//	mv node_modules/openai-6.26.0 node_modules/openai
//	mv node_modules/partial-json-0.1.7 node_modules/partial-json
//	cd - && node pi-ai.mjs /tmp/pi/node_modules/pi-ai
import fs from "node:fs";
import path from "node:path";
import url from "node:url";

const piAi = process.argv[2];
if (!piAi) {
	console.error("usage: node pi-ai.mjs DIR, where DIR holds the unpacked @earendil-works/pi-ai 0.83.0");
	process.exit(2);
}
const { stream } = await import(url.pathToFileURL(path.join(piAi, "dist/api/openai-completions.js")).href);
const { parseStreamingJson } = await import(url.pathToFileURL(path.join(piAi, "dist/utils/json-parse.js")).href);
const version = JSON.parse(fs.readFileSync(path.join(piAi, "package.json"))).version;
if (version !== "0.83.0") {
	console.error(`pi-ai ${version}: the workbook follows 0.83.0`);
	process.exit(1);
}

const model = {
	id: "test-model",
	name: "test-model",
	api: "openai-completions",
	provider: "test",
	baseUrl: "http://fixture.test/v1",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 100000,
	maxTokens: 1000,
};
const context = { messages: [{ role: "user", content: "Weather in Oslo and Lima?", timestamp: 0 }], tools: [] };

// read returns what pi-ai makes of one stream.
async function read(body) {
	const fetch = async () => new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
	const console_ = console.error;
	console.error = () => {}; // the OpenAI SDK logs a chunk it cannot parse
	try {
		for await (const ev of stream(model, context, { apiKey: "none", fetch, maxRetries: 0 })) {
			if (ev.type === "done" || ev.type === "error") {
				const m = ev.type === "done" ? ev.message : ev.error;
				const blocks = (type) => m.content.filter((b) => b.type === type);
				return {
					text: blocks("text").map((b) => b.text).join(""),
					thinking: blocks("thinking").map((b) => b.thinking).join(""),
					toolCalls: blocks("toolCall").map((b) => ({ id: b.id, name: b.name, arguments: b.arguments })),
					stopReason: m.stopReason,
					errorMessage: m.errorMessage ?? "",
				};
			}
		}
	} finally {
		console.error = console_;
	}
	throw new Error("the stream ended without a done or error event");
}

const here = path.dirname(url.fileURLToPath(import.meta.url));
const streams = {};
for (const name of fs.readdirSync(here).filter((n) => n.endsWith(".sse")).sort()) {
	streams[name] = await read(fs.readFileSync(path.join(here, name)));
}
const texts = JSON.parse(fs.readFileSync(path.join(here, "arguments.json")));
const args = texts.map((text) => ({ text, arguments: parseStreamingJson(text) }));
fs.writeFileSync(path.join(here, "pi-ai.json"), JSON.stringify({ version, streams, arguments: args }, null, "\t") + "\n");
console.log(`pi-ai ${version} read ${Object.keys(streams).length} streams and ${args.length} texts of arguments into pi-ai.json`);
