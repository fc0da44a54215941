// The step-through viewer: steps arrive over server-sent events (live, or
// all at once from a saved trace); the page shows one step at a time and
// draws every component's state as the trace recorded it.
"use strict";

// The components, in pipeline order: the stages that touch each, the
// chapter that builds it, and where to read about it.
const components = [
  // Chapter 07's server, drawn only when the trace has it (make demo SERVER=ours).
  { id: "etcd", name: "etcd", chapter: "07", stages: ["etcd"], server: true,
    doc: "docs/07-watchserver.md", file: "07-watchserver/storage.go" },
  { id: "watchcache", name: "Watch cache", chapter: "07", stages: ["watchcache"], server: true,
    doc: "docs/07-watchserver.md", file: "07-watchserver/cache.go" },
  { id: "watchserver", name: "WatchServer", chapter: "07", stages: ["watchserver"], server: true,
    doc: "docs/07-watchserver.md", file: "07-watchserver/watchserver.go" },
  { id: "reflector", name: "Reflector", chapter: "01", stages: ["reflector"], perInformer: true,
    doc: "docs/01-listwatch.md", file: "01-listwatch/reflector.go" },
  { id: "fifo", name: "FIFO", chapter: "02", stages: ["fifo"], perInformer: true,
    doc: "docs/02-deltafifo.md", file: "02-deltafifo/realfifo.go" },
  { id: "indexer", name: "Indexer", chapter: "03", stages: ["indexer"], perInformer: true,
    doc: "docs/03-indexer.md", file: "03-indexer/indexer.go" },
  { id: "handler", name: "Handlers", chapter: "04", stages: ["handler"], perInformer: true,
    doc: "docs/04-processor.md", file: "04-processor/listener.go" },
  { id: "queue", name: "Workqueue", chapter: "05", stages: ["queue"],
    doc: "docs/05-workqueue.md", file: "05-workqueue/queue.go" },
  { id: "worker", name: "Workers", chapter: "06", stages: ["worker"],
    doc: "docs/06-controller.md", file: "06-controller/worker.go" },
  { id: "api", name: "API writes", chapter: "06", stages: ["api", "event", "cluster"],
    doc: "docs/06-controller.md", file: "06-controller/sync.go" },
];

const maxSteps = 5000;

const viewer = {
  steps: [],     // every step received so far
  index: -1,     // the step on screen
  live: true,    // still receiving
  follow: "",    // a key to follow, or "" for all
  timer: null,   // the play timer
};
window.viewer = viewer; // for the browser test and the console

const $ = (id) => document.getElementById(id);

// --- text of each list item: the browser test reads exactly these ---------
const text = {
  fifo: (e) => (e.key || "(all)") + ": " + e.deltas.join(", "),
  object: (o) => o.key + " rv " + o.resourceVersion,
  index: (i, v) => i.name + "=" + v.value + ": " + v.keys.join(" "),
  waiting: (w) => w.key + " in " + w.readyInMs + " ms",
  requeue: ([k, n]) => k + ": " + n,
};

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

// list draws items as a <ul data-list=name>, marking the followed key.
function list(name, items, keyOf) {
  const ul = el("ul", { "data-list": name });
  if (items.length === 0) ul.append(el("li", { class: "empty" }, "empty"));
  for (const item of items) {
    const li = el("li", {}, item.text);
    if (viewer.follow && keyOf(item) === viewer.follow) li.classList.add("followed");
    ul.append(li);
  }
  return ul;
}
const plain = (strings) => strings.map((s) => ({ text: s, key: s }));

function componentBox(c, state, step) {
  const box = el("section", { class: "component", "data-component": c.id });
  const arrow = c.id === "api" ? "" : " →";
  box.append(el("h2", {}, c.chapter + " " + c.name, el("span", { class: "arrow" }, arrow)));
  box.append(el("div", { class: "links" },
    el("a", { href: "/src/" + c.doc, target: "_blank" }, "chapter"),
    el("a", { href: "/src/" + c.file, target: "_blank" }, c.file.split("/")[1])));
  if (c.stages.includes(step.stage)) box.classList.add("hot");
  if (c.server) {
    serverPart(box, c.id, state.server, step);
    return box;
  }
  if (c.perInformer) {
    for (const inf of state.informers || []) {
      const row = el("div", { class: "resource" }, inf.resource);
      if (box.classList.contains("hot") && step.message.includes(inf.resource)) row.classList.add("hot-row");
      box.append(row);
      box.append(informerPart(c.id, inf));
    }
    return box;
  }
  const q = state.queue || {};
  if (c.id === "queue") {
    box.append(el("div", { class: "sub" }, "queue"), list("queue/queue", plain(q.queue || []), (i) => i.key));
    box.append(el("div", { class: "sub" }, "dirty"), list("queue/dirty", plain(q.dirty || []), (i) => i.key));
    box.append(el("div", { class: "sub" }, "waiting (rate limited)"),
      list("queue/waiting", (q.waiting || []).map((w) => ({ text: text.waiting(w), key: w.key })), (i) => i.key));
    box.append(el("div", { class: "sub" }, "requeues"),
      list("queue/requeues", Object.entries(q.requeues || {}).sort().map((e) => ({ text: text.requeue(e), key: e[0] })), (i) => i.key));
  } else if (c.id === "worker") {
    box.append(el("div", { class: "sub" }, "processing (one key per busy worker)"),
      list("queue/processing", plain(q.processing || []), (i) => i.key));
  } else if (c.id === "api") {
    box.append(list("api", (state.api || []).map((s) => ({ text: s, key: "" })), () => ""));
  }
  return box;
}

// keyIn is the namespace/name in an etcd key or a ring entry, for follow.
const keyIn = {
  etcd: (line) => line.split(" ")[1].split("/").slice(-2).join("/"),
  ring: (line) => line.split(" ")[3],
};

// serverPart draws chapter 07's side: etcd's last writes, each watch
// cache (its window, its newest events, its watchers), the last frames.
function serverPart(box, id, srv, step) {
  switch (id) {
    case "etcd":
      box.append(el("div", { class: "sub" }, "last writes"),
        list("etcd", (srv.etcd || []).map((s) => ({ text: s, key: keyIn.etcd(s) })), (i) => i.key));
      break;
    case "watchcache":
      for (const c of srv.caches || []) {
        const r = c.resource;
        const row = el("div", { class: "resource" }, r);
        if (box.classList.contains("hot") && step.message.includes(" " + r.split(".")[0] + " ")) row.classList.add("hot-row");
        box.append(row, el("div", { class: "reflector-line", "data-list": "watchcache/" + r + "/window" }, c.window));
        box.append(el("div", { class: "sub" }, "ring (newest)"),
          list("watchcache/" + r + "/ring", (c.ring || []).map((s) => ({ text: s, key: keyIn.ring(s) })), (i) => i.key));
        box.append(el("div", { class: "sub" }, "watchers"), list("watchcache/" + r + "/watchers", plain(c.watchers || []), () => ""));
      }
      break;
    case "watchserver":
      box.append(el("div", { class: "sub" }, "last frames"), list("watchserver", plain(srv.frames || []), () => ""));
      break;
  }
}

function informerPart(id, inf) {
  const r = inf.resource;
  switch (id) {
    case "reflector":
      return el("div", { class: "reflector-line", "data-list": "reflector/" + r },
        inf.reflector.phase + (inf.reflector.resourceVersion ? " · rv " + inf.reflector.resourceVersion : ""));
    case "fifo":
      return list("fifo/" + r, (inf.fifo || []).map((e) => ({ text: text.fifo(e), key: e.key })), (i) => i.key);
    case "indexer": {
      const part = el("div");
      part.append(list("indexer/" + r, (inf.indexer || []).map((o) => ({ text: text.object(o), key: o.key })), (i) => i.key));
      const idx = [];
      for (const i of inf.indexes || []) for (const v of i.values || []) idx.push({ text: text.index(i, v), key: "" });
      part.append(el("div", { class: "sub" }, "indexes"), list("index/" + r, idx, () => ""));
      return part;
    }
    case "handler":
      return list("handler/" + r, plain(inf.handler || []).map((i) => ({ text: i.text, key: i.text.split(" ").pop() })), (i) => i.key);
  }
}

// show puts step i on screen.
function show(i) {
  if (viewer.steps.length === 0) return;
  viewer.index = Math.max(0, Math.min(i, viewer.steps.length - 1));
  const step = viewer.steps[viewer.index];
  $("title").textContent = step.section ? step.section + ". " + step.title : "Start";
  $("seq").textContent = (viewer.index + 1) + "/" + viewer.steps.length;
  $("at").textContent = step.at.toFixed(3) + " s";
  $("stage").textContent = step.stage;
  $("key").textContent = step.key || "";
  $("message").textContent = step.message;
  const pipeline = $("pipeline");
  const server = Boolean(step.state.server);
  document.body.classList.toggle("with-server", server);
  pipeline.replaceChildren(...components.filter((c) => server || !c.server).map((c) => componentBox(c, step.state, step)));
  $("slider").max = viewer.steps.length;
  $("slider").value = viewer.index + 1;
  document.body.dataset.step = step.seq;
}

// wanted is whether step s is one to stop at: all of them, or only those
// of the followed object.
const wanted = (s) => !viewer.follow || s.key === viewer.follow;

function move(delta, stages) {
  for (let i = viewer.index + delta; i >= 0 && i < viewer.steps.length; i += delta) {
    const s = viewer.steps[i];
    if (wanted(s) && (!stages || stages.includes(s.stage))) { show(i); return true; }
  }
  return false;
}

function play() {
  if (viewer.timer) { clearInterval(viewer.timer); viewer.timer = null; $("play").textContent = "▶ play"; return; }
  $("play").textContent = "❚❚ pause";
  viewer.timer = setInterval(() => {
    if (!move(1) && !viewer.live) play();
  }, Number($("speed").value));
}

function addFollowOption(key) {
  if (!key || [...$("follow").options].some((o) => o.value === key)) return;
  $("follow").append(el("option", { value: key }, key));
}

function status() {
  $("status").textContent = (viewer.live ? "live: " : "recorded trace: ") + viewer.steps.length + " steps";
}

function receive() {
  const events = new EventSource("/events");
  // ?step=N opens the page at step N (the docs' stills use it).
  const start = Number(new URLSearchParams(location.search).get("step") || 1);
  events.addEventListener("hello", (m) => {
    viewer.live = JSON.parse(m.data).live;
    viewer.wasLive = viewer.live;
    status();
  });
  events.onmessage = (m) => {
    const step = JSON.parse(m.data);
    const atEnd = viewer.index === viewer.steps.length - 1;
    viewer.steps.push(step);
    // A controller that runs for days sends steps for days: keep the
    // newest maxSteps.
    if (viewer.steps.length > maxSteps) {
      viewer.steps.shift();
      viewer.index = Math.max(viewer.index - 1, 0);
    }
    addFollowOption(step.key);
    // Live, the page keeps up with the newest step unless the user has
    // stepped back to look at an older one or is playing; a finished
    // trace opens at its first step.
    if (viewer.live && (atEnd || viewer.index < 0) && !viewer.timer) show(viewer.steps.length - 1);
    else if (!viewer.live && step.seq === start) show(start - 1);
    else {
      $("seq").textContent = (viewer.index + 1) + "/" + viewer.steps.length;
      $("slider").max = viewer.steps.length;
    }
    status();
  };
  events.addEventListener("end", () => {
    events.close();
    viewer.live = false;
    if (viewer.index < 0) show(0);
    status();
    document.body.dataset.loaded = "true";
  });
  events.onerror = () => {
    if (viewer.live) { $("status").textContent = "the demo has stopped; reload to reconnect"; events.close(); viewer.live = false; }
  };
}

$("first").onclick = () => show(0);
$("last").onclick = () => show(viewer.steps.length - 1);
$("back").onclick = () => move(-1);
$("forward").onclick = () => move(1);
$("play").onclick = play;
$("slider").oninput = (e) => show(Number(e.target.value) - 1);
$("follow").onchange = (e) => { viewer.follow = e.target.value; show(viewer.index); };
for (const b of document.querySelectorAll("[data-jump]")) {
  const c = components.find((c) => c.id === b.dataset.jump);
  b.onclick = () => move(1, c.stages);
}
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "SELECT" || e.target.tagName === "INPUT") return;
  if (e.key === "ArrowRight") move(1);
  else if (e.key === "ArrowLeft") move(-1);
  else if (e.key === " ") { e.preventDefault(); play(); }
  else if (e.key === "Home") show(0);
  else if (e.key === "End") show(viewer.steps.length - 1);
  else return;
});
viewer.show = show;
viewer.move = move;
receive();
