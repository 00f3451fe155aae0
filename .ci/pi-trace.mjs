// pi-trace.mjs runs a scenario file of Agent Loop Lab on Pi 0.83.0's own
// Agent, and prints the trace of its events in lab 06's -trace format, one
// line per event. It needs @earendil-works/pi-agent-core@0.83.0 and
// @earendil-works/pi-ai@0.83.0 installed beside it (npm install).
//
//   node pi-trace.mjs FILE.json > NAME.trace.txt
//
// .ci/pi-traces runs it on every scenario file of lab 06. The scenario's
// fake world is played as lab 06 plays it: the replies one per request,
// streamed in fakemodel.Chunks' pieces (one message_update each) unless
// "stream" is false, and checked for a cancel after the last one, as
// pi-ai's providers do; the tools' durations, updates and results on
// timers, a cancelled call failing with "context canceled"; the hooks
// given as data; the simulated user at the events its plan names. Two
// things it leaves to Pi: a call whose arguments fail their check gets
// Pi's message, and a call prepared before a cancel runs, with the aborted
// signal, where labs 05 and 06 follow Pi 0.85.0. No example has either.
import { Agent } from "@earendil-works/pi-agent-core";
import { createAssistantMessageEventStream, Type } from "@earendil-works/pi-ai";
import { readFileSync } from "node:fs";

const s = JSON.parse(readFileSync(process.argv[2], "utf8"));
const out = [];
const line = (l) => out.push(l);

// chunks cuts text as fakemodel.Chunks does: a word with the white space
// after it, or a character of Chinese or Japanese.
function chunks(text) {
	const alone = (r) => /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303F\uFF00-\uFFEF]/u.test(r);
	const space = (r) => /\s/u.test(r);
	const out = [];
	let cur = "";
	let prev = null;
	for (const r of text) {
		if (prev !== null && !space(r) && (space(prev) || alone(prev) || alone(r))) {
			out.push(cur);
			cur = "";
		}
		cur += r;
		prev = r;
	}
	if (cur) out.push(cur);
	return out;
}

const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const model = (id) => ({ id, name: id, api: "scenario", provider: "scenario", baseUrl: "", reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1e6, maxTokens: 1e6 });
const assistant = (content, stopReason, errorMessage) => ({ role: "assistant", content, api: "scenario", provider: "scenario", model: "scenario", usage, stopReason, errorMessage, timestamp: 0 });
const toolCallsOf = (calls) => (calls || []).map((c) => ({ type: "toolCall", id: c.id, name: c.name, arguments: c.args === undefined ? {} : c.args }));

// The scripts: the scenario's replies, and those of each swap.
const scripts = { main: { replies: s.replies || [], next: 0 } };
(s.prepareNextTurn || []).forEach((swap, i) => (scripts[`swap${i}`] = { replies: swap.replies || [], next: 0 }));

const tick = () => new Promise((r) => setImmediate(r));

function streamFn(m, _context, options) {
	const stream = createAssistantMessageEventStream();
	const script = scripts[m.id];
	const n = script.next++;
	const signal = options?.signal;
	(async () => {
		const fail = (reason, msg, text) => {
			const message = assistant(text ? [{ type: "text", text }] : [], reason, msg);
			stream.push({ type: "error", reason, error: message });
			stream.end(message);
		};
		if (signal?.aborted) return fail("aborted", "scripted model: context canceled");
		if (n >= script.replies.length) return fail("error", `scripted model: no reply left for request ${n + 1}: the script holds ${script.replies.length}`);
		const r = script.replies[n];
		const reason = r.stopReason || ((r.toolCalls || []).length ? "toolUse" : "stop");
		const streams = r.stream !== false;
		const text = reason === "error" ? r.partial || "" : r.text || "";
		const partial = assistant([], reason);
		let sofar = "";
		if (streams) {
			stream.push({ type: "start", partial });
			for (const c of chunks(text)) {
				await tick();
				if (signal?.aborted) return fail("aborted", "scripted model: context canceled", sofar);
				sofar += c;
				partial.content = [{ type: "text", text: sofar }];
				stream.push({ type: "text_delta", contentIndex: 0, delta: c, partial });
			}
			await tick();
		}
		if (reason === "error") return fail("error", `scripted model: ${r.text}`, sofar);
		if (signal?.aborted) return fail("aborted", "scripted model: context canceled", sofar);
		const message = assistant([...(text ? [{ type: "text", text }] : []), ...toolCallsOf(r.toolCalls)], reason);
		stream.push({ type: "done", reason, message });
		stream.end(message);
	})();
	return stream;
}

// The fake tools, with each call's behaviour completed from its tool's.
function behaviour(tool, id) {
	const def = s.tools[tool] || {};
	const b = { ...((s.calls || {})[id] || {}) };
	b.durationMs ??= def.durationMs;
	if (b.updates === undefined) [b.updates, b.updatesAtMs] = [def.updates, def.updatesAtMs];
	if (["result", "terminate", "error", "panic", "echoArgs"].every((k) => b[k] === undefined)) {
		for (const k of ["result", "terminate", "error", "panic", "echoArgs"]) b[k] = def[k];
	}
	return b;
}
const tools = Object.keys(s.tools || {})
	.sort()
	.map((name) => ({
		name,
		label: name,
		description: "A fake tool: what it does is data.",
		parameters: Type.Object({}),
		executionMode: s.tools[name].sequential ? "sequential" : undefined,
		execute: (id, args, signal, onUpdate) =>
			new Promise((resolve, reject) => {
				const b = behaviour(name, id);
				const d = b.durationMs || 0;
				const notes = b.updates || [];
				const at = b.updatesAtMs || notes.map((_, i) => Math.floor((d / (notes.length + 1)) * (i + 1)));
				const timers = notes.map((note, i) => setTimeout(() => onUpdate?.({ content: [{ type: "text", text: note }], details: {} }), at[i]));
				const cancel = () => {
					timers.forEach(clearTimeout);
					clearTimeout(end);
					reject(new Error("context canceled"));
				};
				const end = setTimeout(() => {
					signal?.removeEventListener("abort", cancel);
					if (b.panic) return reject(new Error(`Tool "${name}" panicked: ${b.panic}`));
					if (b.error) return reject(new Error(b.error));
					const text = b.echoArgs ? JSON.stringify(args) : b.result || "";
					resolve({ content: [{ type: "text", text }], details: {}, terminate: b.terminate || undefined });
				}, d);
				if (signal?.aborted) return cancel();
				signal?.addEventListener("abort", cancel, { once: true });
			}),
	}));

// The history, as Pi's messages.
const names = {};
const history = (s.history || []).map((m) => {
	if (m.role === "user") return { role: "user", content: m.text, timestamp: 0 };
	if (m.role === "assistant") {
		(m.toolCalls || []).forEach((c) => (names[c.id] = c.name));
		return assistant([...(m.text ? [{ type: "text", text: m.text }] : []), ...toolCallsOf(m.toolCalls)], m.stopReason || ((m.toolCalls || []).length ? "toolUse" : "stop"));
	}
	return { role: "toolResult", toolCallId: m.toolCallId, toolName: names[m.toolCallId], content: [{ type: "text", text: m.text || "" }], isError: !!m.isError, timestamp: 0 };
});

let turns = 0;
const agent = new Agent({
	initialState: { messages: history, tools, model: model("main") },
	streamFn,
	toolExecution: s.toolExecution || "parallel",
	steeringMode: s.queueMode || "one-at-a-time",
	followUpMode: s.queueMode || "one-at-a-time",
	transformContext: s.transformContext ? async (messages) => messages.slice(-s.transformContext.keepLast) : undefined,
	beforeToolCall: async ({ toolCall, args }) => {
		const own = (s.calls || {})[toolCall.id] || {};
		if (own.block !== undefined) return { block: true, reason: own.block };
		if ((s.block || {})[toolCall.name] !== undefined) return { block: true, reason: s.block[toolCall.name] };
		if (own.setArgs) Object.assign(args, own.setArgs);
		return undefined;
	},
	afterToolCall: async ({ toolCall }) => {
		const o = (s.afterToolCall || {})[toolCall.name];
		if (!o) return undefined;
		return { content: o.content === undefined ? undefined : [{ type: "text", text: o.content }], isError: o.isError, terminate: o.terminate };
	},
	prepareNextTurnWithContext: async () => {
		turns++;
		const i = (s.prepareNextTurn || []).findIndex((swap) => swap.afterTurn === turns);
		return i < 0 ? undefined : { model: model(`swap${i}`) };
	},
});
// Pi 0.83.0's Agent takes no shouldStopAfterTurn (0.84.0's does): give
// its loop the turn limit, as lab 06's Agent takes it.
if (s.stopAfterTurn) {
	const config = agent.createLoopConfig.bind(agent);
	agent.createLoopConfig = (o) => ({ ...config(o), shouldStopAfterTurn: async ({ newMessages }) => newMessages.filter((m) => m.role === "assistant").length >= s.stopAfterTurn });
}

function traceLine(e) {
	const label = (m) => (m.role === "toolResult" ? `toolResult ${m.toolCallId}${m.isError ? " error" : ""}` : m.role);
	switch (e.type) {
		case "agent_end":
			return `agent_end messages=${e.messages.length}`;
		case "turn_end":
			return `turn_end results=${e.toolResults.length}`;
		case "message_start":
		case "message_end":
			return `${e.type} ${label(e.message)}`;
		case "message_update":
			return "message_update assistant";
		case "tool_execution_start":
			return `tool_execution_start ${e.toolCallId} ${e.toolName}`;
		case "tool_execution_update":
			return `tool_execution_update ${e.toolCallId}`;
		case "tool_execution_end": {
			if (!e.isError) return `tool_execution_end ${e.toolCallId}`;
			const text = (e.result.content || []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
			return `tool_execution_end ${e.toolCallId} error: ${text.split("\n")[0]}`;
		}
		default:
			return e.type;
	}
}

// The simulated user's plan, as lab 06's scenario.User carries it out.
const plan = [
	...(s.steer || []).map((m) => ({ ...m, kind: "steer" })),
	...(s.followUp || []).map((m) => ({ ...m, kind: "followUp" })),
	...(s.whileRunning || []).map((m) => ({ ...m, kind: "try" })),
	...(s.interrupts || []).map((m) => ({ ...m, kind: "interrupt" })),
].map((m) => ({ ...m, seen: 0, done: false }));
const userMessage = (text) => ({ role: "user", content: [{ type: "text", text }], timestamp: 0 });
async function act(m) {
	m.done = true;
	if (m.kind === "steer") agent.steer(userMessage(m.text));
	if (m.kind === "followUp") agent.followUp(userMessage(m.text));
	if (m.kind === "interrupt") agent.abort();
	if (m.kind === "try") {
		try {
			await (m.continue ? agent.continue() : agent.prompt(m.prompt));
		} catch {}
	}
}
const matches = (l, at) => l === at || l.startsWith(at + " ");
agent.subscribe(async (e) => {
	const l = traceLine(e);
	line(l);
	for (const m of plan) {
		if (m.done || !m.at || !matches(l, m.at)) continue;
		if (++m.seen >= (m.occurrence || 1)) await act(m);
	}
});

const runs = s.runs ?? [{ prompt: s.prompt }, ...(s.nextPrompts || []).map((p) => ({ prompt: p }))];
for (const m of plan) if (!m.at) await act(m);
for (const r of runs) {
	try {
		await (r.continue ? agent.continue() : agent.prompt(r.prompt));
	} catch {}
}
process.stdout.write(out.map((l) => l + "\n").join(""));
