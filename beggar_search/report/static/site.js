/* beggar-search report: the pages' behaviour, plain JavaScript, no build step.
 *
 * Data comes in named pieces: BS.put(name, value) stores one; BS.load(name) gets one,
 * with fetch("data/NAME.json") when the site is served, or a script tag for
 * "data/NAME.js" when it is opened as files (browsers refuse fetch of local files).
 * Every value from the results file reaches the page as text (textContent, attribute
 * values set one by one, URLs built with encodeURIComponent): never as HTML.
 */
"use strict";

const BS = (() => {
  const store = {};
  const waiting = {};
  const COURT = "JQKA";
  const PAGE_ROWS = 100;

  function put(name, value) {
    store[name] = value;
    (waiting[name] || []).forEach((resolve) => resolve(value));
    delete waiting[name];
  }

  function load(name) {
    if (name in store) return Promise.resolve(store[name]);
    if (location.protocol === "http:" || location.protocol === "https:") {
      return fetch("data/" + name + ".json").then((response) => {
        if (!response.ok) throw new Error("data/" + name + ".json: " + response.status);
        return response.json();
      }).then((value) => { store[name] = value; return value; });
    }
    return new Promise((resolve, reject) => {
      (waiting[name] = waiting[name] || []).push(resolve);
      const script = document.createElement("script");
      script.src = "data/" + name + ".js";
      script.onerror = () => reject(new Error("data/" + name + ".js could not be loaded"));
      document.head.appendChild(script);
    });
  }

  // elements: el("td", {class: "num"}, "text", child...) -- strings become text nodes
  function el(tag, attrs, ...children) {
    const svg = ["svg", "g", "circle", "line", "polyline", "text", "a", "title", "rect", "path"]
      .includes(tag) && (attrs && attrs.svg);
    const node = svg ? document.createElementNS("http://www.w3.org/2000/svg", tag)
      : document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "svg" || value === null || value === undefined || value === false) continue;
      if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined) continue;
      node.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
    }
    return node;
  }
  const s = (tag, attrs, ...children) => el(tag, Object.assign({svg: true}, attrs), ...children);

  function hashParams() { return new URLSearchParams(location.hash.slice(1)); }
  function link(page, params) {
    return page + ".html#" + Object.entries(params).map(
      ([k, v]) => encodeURIComponent(k) + "=" + encodeURIComponent(v)).join("&");
  }
  function number(value) {
    if (value === null || value === undefined || value === "") return "";
    if (typeof value === "number") return value.toLocaleString("en");
    const text = String(value);
    return /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/.test(text) ? text.slice(0, 16).replace("T", " ") : text;
  }
  function plural(count, word) { return `${number(count)} ${word}${count === 1 ? "" : "s"}`; }
  function runInfo(id) { return store.manifest.runs.find((run) => run.run === id) || {}; }
  function shellQuote(text) { return "'" + String(text).replace(/'/g, "'\\''") + "'"; }
  function playCommand(runId, deal) {
    return "beggar-search play " + shellQuote(deal) + " " + runInfo(runId).play_options + " --trace";
  }
  function bucketOf(cycle, buckets) { return (parseInt(cycle.slice(-6), 16) || 0) % buckets; }

  function copyButton(text) {
    const button = el("button", {type: "button", class: "copy", title: text}, "copy");
    button.addEventListener("click", () => {
      const done = () => { button.textContent = "copied"; setTimeout(() => { button.textContent = "copy"; }, 1500); };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, () => fallbackCopy(text, done));
      } else fallbackCopy(text, done);
    });
    return button;
  }
  function fallbackCopy(text, done) {
    const area = el("textarea", {class: "offscreen"});
    area.value = text;
    document.body.appendChild(area);
    area.select();
    try { document.execCommand("copy"); done(); } catch (error) { /* the title shows it */ }
    area.remove();
  }
  function command(text) {
    return el("div", {class: "command"}, el("code", {}, text), copyButton(text));
  }
  function cycleLink(runId, cycle) {
    return cycle ? el("a", {href: link("cycle", {run: runId, cycle: cycle}), class: "cycle"}, cycle) : "";
  }

  // ---- tables: sortable, filterable, paged, loaded chunk by chunk ----------------
  const RUN_COLUMNS = {
    game: (row) => runInfo(row[0]).game, deck: (row) => runInfo(row[0]).deck,
    players: (row) => runInfo(row[0]).players,
  };
  const TABLES = {
    longest: ["run", "game", "deck", "players", "rank", "cards", "tricks", "outcome", "winner",
      "deal", "cycle", "found"],
    loops: ["run", "game", "deck", "players", "rank", "deal", "preperiod_tricks", "period_tricks",
      "tricks", "cards", "cycle", "found"],
    cycles: ["run", "game", "deck", "cycle", "period_tricks", "period_cards", "preperiod_tricks",
      "deals", "fair_deals", "fair_deals_swapped", "reach_states", "reach_depth", "island",
      "generation", "parent", "move", "mirror", "found"],
  };
  const LABELS = {
    preperiod_tricks: "pre-period", period_tricks: "period (tricks)", period_cards: "period (cards)",
    fair_deals: "fair deals (1 leads)", fair_deals_swapped: "fair deals (2 leads)",
    reach_states: "in-tree states", reach_depth: "in-tree depth", rank: "#",
  };

  function table(holder) {
    const name = holder.dataset.table;
    const info = store.manifest.tables[name];
    const columns = info.columns;
    const at = Object.fromEntries(columns.map((column, i) => [column, i]));
    const shown = TABLES[name];
    const value = (row, column) => column in RUN_COLUMNS ? RUN_COLUMNS[column](row) : row[at[column]];
    const rows = [];
    const filters = {};
    const wanted = hashParams();
    for (const key of wanted.keys()) if (shown.includes(key)) filters[key] = wanted.get(key);
    let sort = shown.includes(wanted.get("sort")) ? wanted.get("sort") : null;  // #sort=cards&order=down
    let descending = wanted.get("order") === "down";
    let page = 0;
    let matched = [];
    const status = el("p", {class: "status", id: "table-status"});
    const head = el("tr");
    const filterRow = el("tr", {class: "filters"});
    const body = el("tbody", {id: "rows"});
    const pager = el("div", {class: "pager"});
    holder.append(status, el("table", {class: "data", id: "data-" + name}, el("thead", {}, head, filterRow), body), pager);

    const choices = {run: [...new Set(store.manifest.runs.map((r) => r.run))]};
    for (const key of ["game", "deck", "players"]) choices[key] = [...new Set(store.manifest.runs.map((r) => r[key]))];
    for (const column of shown) {
      const th = el("th", {"data-column": column, title: "sort"}, LABELS[column] || column.replace(/_/g, " "));
      th.addEventListener("click", () => {
        descending = sort === column ? !descending : ["cards", "tricks", "deals", "fair_deals", "reach_states", "reach_depth", "period_tricks"].includes(column);
        sort = column;
        page = 0;
        refresh();
      });
      head.appendChild(th);
      let input;
      if (column in choices) {
        input = el("select", {"data-filter": column}, el("option", {value: ""}, "all"),
          choices[column].map((c) => el("option", {value: String(c)}, String(c))));
      } else {
        input = el("input", {"data-filter": column, size: 6, placeholder: ["deal", "cycle", "parent", "mirror", "move", "outcome", "found"].includes(column) ? "contains" : ">=, <, a-b"});
      }
      if (filters[column]) input.value = filters[column];
      input.addEventListener("input", () => { filters[column] = input.value.trim(); page = 0; refresh(); });
      filterRow.appendChild(el("th", {}, input));
    }

    function test(text, cell) {
      if (!text) return true;
      if (cell === null || cell === undefined) return false;
      if (typeof cell === "number" || typeof cell === "boolean") {
        const v = Number(cell);
        let m;
        if ((m = text.match(/^(>=|<=|>|<|=)?\s*(-?\d+(?:\.\d+)?)$/))) {
          const n = Number(m[2]);
          return {">=": v >= n, "<=": v <= n, ">": v > n, "<": v < n}[m[1]] ?? v === n;
        }
        if ((m = text.match(/^(\d+)\s*-\s*(\d+)$/))) return v >= Number(m[1]) && v <= Number(m[2]);
        return String(cell) === text;
      }
      return String(cell).toLowerCase().includes(text.toLowerCase());
    }
    function refresh() {
      const active = Object.entries(filters).filter(([, text]) => text);
      matched = rows.filter((row) => active.every(([column, text]) =>
        column in choices ? String(value(row, column)) === text : test(text, value(row, column))));
      if (sort) {
        matched.sort((a, b) => {
          const x = value(a, sort), y = value(b, sort);
          const order = (x === null || x === undefined) - (y === null || y === undefined) ||
            (x < y ? -1 : x > y ? 1 : 0);
          return descending ? -order : order;
        });
      }
      for (const th of head.children) {
        th.className = th.dataset.column === sort ? (descending ? "sorted down" : "sorted up") : "";
      }
      render();
    }
    function cell(row, column) {
      const v = value(row, column);
      const runId = row[0];
      if (column === "run") return el("a", {href: "index.html#run-detail-" + runId}, v);
      if (["cycle", "parent", "mirror"].includes(column)) return cycleLink(runId, v);
      if (column === "island") return el("a", {href: link("family", {run: runId, island: v})}, v);
      if (column === "deal") {
        const key = row[at.replay];
        return [key ? el("a", {href: link("game", {key: key}), class: "deal"}, v) : el("code", {class: "deal"}, v), " ", copyButton(playCommand(runId, v))];
      }
      if (column === "reach_states" && v !== null && v !== undefined) return number(v) + (row[at.reach_complete] === 0 ? "+" : "");
      return number(v);
    }
    function render() {
      body.replaceChildren();
      const start = page * PAGE_ROWS;
      for (const row of matched.slice(start, start + PAGE_ROWS)) {
        body.appendChild(el("tr", {}, shown.map((column) => el("td", {class: typeof value(row, column) === "number" ? "num" : null}, cell(row, column)))));
      }
      const loading = rows.length < info.rows ? ` (loading: ${number(rows.length)} of ${number(info.rows)} rows so far)` : "";
      status.textContent = matched.length ? `rows ${number(start + 1)}-${number(Math.min(start + PAGE_ROWS, matched.length))} of ${number(matched.length)} matching${loading}` : `no rows match${loading}`;
      pager.replaceChildren(
        el("button", {type: "button", disabled: page === 0, onclick: () => { page--; render(); }}, "previous"),
        el("button", {type: "button", id: "next-page", disabled: start + PAGE_ROWS >= matched.length, onclick: () => { page++; render(); }}, "next"));
    }
    let chunk = 0;
    function next() {
      if (chunk >= info.chunks) {
        refresh();
        holder.dataset.loaded = "yes";
        document.body.dataset.allRowsMs = Math.round(performance.now());  // how long it took
        return;
      }
      load(name + "-" + chunk).then((part) => {
        rows.push(...part);
        chunk++;
        if (chunk === 1 || chunk % 8 === 0) refresh();
        if (chunk === 1) document.body.dataset.firstRowsMs = Math.round(performance.now());
        setTimeout(next, 0);
      }, (error) => { status.textContent = String(error); });
    }
    next();
  }

  // ---- a cycle's page -------------------------------------------------------------
  function sizePlot(states) {
    const players = states[0].sizes.length;
    const total = states[0].sizes.reduce((a, b) => a + b, 0);
    const width = 600, height = 180, step = states.length > 1 ? width / (states.length - 1) : width;
    const svg = s("svg", {viewBox: `-30 -10 ${width + 40} ${height + 30}`, class: "sizes", id: "size-plot", role: "img"});
    svg.appendChild(s("line", {x1: 0, y1: height, x2: width, y2: height, class: "axis"}));
    for (let p = 0; p < players; p++) {
      const points = states.map((state, i) => `${(i * step).toFixed(1)},${(height - height * state.sizes[p] / total).toFixed(1)}`).join(" ");
      svg.appendChild(s("polyline", {points: points, class: "player p" + (p + 1)}, s("title", {}, "player " + (p + 1))));
    }
    svg.append(s("text", {x: -4, y: 4, class: "tick end"}, String(total)), s("text", {x: -4, y: height, class: "tick end"}, "0"),
      s("text", {x: width, y: height + 18, class: "tick end"}, states.length + " tricks"));
    return el("figure", {}, svg, el("figcaption", {}, "Hand sizes over one period, trick by trick (player 1 blue, player 2 orange, others further)."));
  }

  function cyclePage() {
    const holder = document.getElementById("cycle");
    const params = hashParams();
    const runId = Number(params.get("run"));
    const name = params.get("cycle") || "";
    const per = store.manifest.tables.per_run[String(runId)];
    if (!per || !/^[0-9a-f]{16}$/.test(name)) { holder.replaceChildren(el("p", {class: "empty"}, "No such cycle in this report.")); return; }
    load(`cycle-${runId}-${bucketOf(name, per.buckets)}`).then((group) => {
      const detail = group[name];
      if (!detail) { holder.replaceChildren(el("p", {class: "empty"}, `No cycle ${name} in run ${runId}.`)); return; }
      const at = Object.fromEntries(store.manifest.tables.cycles.columns.map((c, i) => [c, i]));
      const row = detail.row;
      const v = (key) => row[at[key]];
      const fig = (label, value) => [el("dt", {}, label), el("dd", {}, value)];
      const run = runInfo(runId);
      const mirror = v("own_mirror") ? "its own mirror" : cycleLink(runId, v("mirror"));
      holder.replaceChildren(
        el("h1", {}, "Cycle ", el("code", {id: "cycle-id"}, name)),
        el("p", {class: "note"}, `Run ${runId} (${run.strategy}, ${run.game}, deck ${run.deck}, ${run.players} players).`),
        el("dl", {class: "figures", id: "figures"},
          fig("period", `${number(v("period_tricks"))} tricks, ${number(v("period_cards"))} cards`),
          fig("pre-period of its first deal", v("preperiod_tricks") === null ? "no deal stored" : plural(v("preperiod_tricks"), "trick")),
          fig("deals of the run reaching it", number(v("deals"))),
          fig("fair deals entering it", v("fair_deals") === null ? "not counted" : `${number(v("fair_deals"))} with player 1 leading, ${number(v("fair_deals_swapped"))} with player 2 leading`),
          fig("in-tree", v("reach_states") === null ? "not searched" : `${number(v("reach_states"))} states${v("reach_complete") === 0 ? " (search stopped at its budget)" : ""}${v("reach_depth") === null ? "" : ", depth " + number(v("reach_depth")) + " tricks"}`),
          fig("island", el("a", {href: link("family", {run: runId, island: v("island")})}, v("island"))),
          fig("generation", number(v("generation"))),
          fig("parent", v("parent") ? [cycleLink(runId, v("parent")), " by the move ", v("move") || ""] : (v("move") ? `none (met by ${v("move")})` : "none")),
          fig("children", detail.children.length ? detail.children.map((c) => [cycleLink(runId, c), " "]) : "none"),
          fig("moves into known cycles", detail.links.length ? detail.links.map((c) => [cycleLink(runId, c), " "]) : "none"),
          fig("mirror (players renamed)", v("mirror") || v("own_mirror") ? mirror : "not known"),
          fig("found", v("found"))),
        el("h2", {}, "Entering it"),
        detail.example && !detail.example.includes(":") ? el("div", {}, el("p", {}, "Its first deal", detail.replay ? [" (", el("a", {href: link("game", {key: detail.replay}), id: "replay-link"}, "replay"), ")"] : "", ":"), command(playCommand(runId, detail.example))) : "",
        detail.state ? el("p", {}, "A state on it (leader:hands): ", el("code", {}, detail.state)) : el("span"),
        el("div", {id: "states"}),
        el("h2", {}, `Deals reaching it (${number(detail.deals_listed)})`),
        detail.deals.length ? el("ul", {class: "deals", id: "deals"}, detail.deals.map((deal) => el("li", {}, command(playCommand(runId, deal))))) : el("p", {class: "empty"}, "None on the run's loops board (a cycle met as a state)."),
        detail.deals_listed > detail.deals.length ? el("p", {class: "note"}, `The first ${detail.deals.length} shown: beggar-search export --what loops lists them all.`) : el("span"));
      const statesHolder = document.getElementById("states");
      if (detail.states_file === undefined) {
        statesHolder.append(el("p", {class: "note"}, "Its states were not played out for this report (only the most reached cycles are: see --cycle-pages)."));
        return;
      }
      load(`states-${runId}-${detail.states_file}`).then((data) => {
        if (!data.states.length) { statesHolder.append(el("p", {class: "note"}, "No states (a game under odds: no state fixes it).")); return; }
        statesHolder.append(el("h2", {}, "Its states at trick boundaries"), sizePlot(data.states),
          el("table", {class: "data states", id: "state-table"},
            el("thead", {}, el("tr", {}, el("th", {}, "trick"), el("th", {}, "leader"), el("th", {}, "hands"), el("th", {}, "sizes"))),
            el("tbody", {}, data.states.map((state, i) => el("tr", {}, el("td", {class: "num"}, i), el("td", {class: "num"}, state.leader),
              el("td", {}, el("code", {}, state.hands.join(" / "))), el("td", {}, state.sizes.join("/")))))));
      });
    }, (error) => holder.replaceChildren(el("p", {class: "empty"}, String(error))));
  }

  // ---- a game's replay ------------------------------------------------------------
  function paySegments(trick) {
    const segments = [];
    let previousCourt = false;
    for (let i = 0; i < trick.cards.length; i++) {
      const player = trick.by[i];
      const last = segments[segments.length - 1];
      if (!last || last.player !== player) segments.push({player: player, cards: "", pays: previousCourt});
      segments[segments.length - 1].cards += trick.cards[i];
      previousCourt = COURT.includes(trick.cards[i]);
      if (previousCourt) segments[segments.length - 1].closed = true;
    }
    return segments;
  }

  function gamePage() {
    const holder = document.getElementById("game");
    const params = hashParams();
    const key = params.get("key") || "";
    if (!/^\d+-\d+$/.test(key)) { holder.replaceChildren(el("p", {class: "empty"}, "No such game in this report.")); return; }
    load("trace-" + key).then((trace) => {
      const run = runInfo(trace.run);
      const total = trace.tricks.length;
      let step = 0;
      const result = trace.result;
      const outcome = result.outcome === "loop" ? `a loop: ${number(result.preperiod_tricks)} tricks before a cycle of ${number(result.period_tricks)} tricks (${number(result.period_cards)} cards)`
        : `${result.outcome}, ${result.winner ? "player " + result.winner + " wins" : "a tie"}`;
      const hands = el("div", {class: "hands", id: "hands"});
      const pile = el("div", {class: "pile", id: "pile"});
      const counter = el("span", {id: "step"});
      const slider = el("input", {type: "range", min: 0, max: total, value: 0, id: "slider"});
      const go = (to) => { step = Math.max(0, Math.min(total, to)); show(); };
      holder.replaceChildren(
        el("h1", {}, "Replay of ", el("code", {id: "deal"}, trace.deal)),
        el("p", {class: "note"}, `Run ${trace.run} (${run.game}, deck ${run.deck}): ${number(result.cards)} cards, ${number(result.tricks)} tricks; ${outcome}.`,
          result.cycle ? [" Cycle ", cycleLink(trace.run, result.cycle), "."] : ""),
        command(trace.command),
        el("div", {class: "controls"},
          el("button", {type: "button", id: "first", onclick: () => go(0)}, "|◀ deal"),
          el("button", {type: "button", id: "back", onclick: () => go(step - 1)}, "◀ trick"),
          el("button", {type: "button", id: "next", onclick: () => go(step + 1)}, "trick ▶"),
          el("button", {type: "button", id: "last", onclick: () => go(total)}, "end ▶|"),
          slider, counter),
        hands, pile);
      slider.addEventListener("input", () => go(Number(slider.value)));
      document.addEventListener("keydown", (event) => {
        if (event.key === "ArrowRight") go(step + 1);
        if (event.key === "ArrowLeft") go(step - 1);
      });
      function show() {
        const trick = step ? trace.tricks[step - 1] : null;
        const sizes = trick ? trick.sizes : trace.start.map((hand) => hand.length);
        const handText = trick ? trick.hands : trace.start;
        counter.textContent = step ? `after trick ${step} of ${total}` : `the deal (${total} tricks)`;
        slider.value = step;
        hands.replaceChildren(...sizes.map((size, p) => el("div", {class: "hand" + (trick && trick.taker === p + 1 ? " took" : "")},
          el("span", {class: "who"}, `player ${p + 1}`), el("span", {class: "count", id: `size-${p + 1}`}, `${size} cards`),
          el("code", {id: `hand-${p + 1}`}, handText ? handText[p] : "(hands not replayed under odds: sizes only)"))),
          el("p", {id: "sizes", class: "note"}, "hand sizes " + sizes.join("/")));
        if (!trick) { pile.replaceChildren(el("p", {class: "note"}, "Player 1 leads. Step with the buttons or the arrow keys.")); return; }
        pile.replaceChildren(
          el("h3", {}, `Trick ${step}: player ${trick.leader} leads`),
          el("ol", {class: "laid", id: "laid"}, paySegments(trick).map((segment) => el("li", {class: segment.pays ? "pays" : ""},
            el("span", {class: "who"}, `player ${segment.player}${segment.pays ? " pays" : " lays"}`), " ",
            [...segment.cards].map((card) => el("span", {class: "card" + (COURT.includes(card) ? " court" : "")}, card))))),
          el("p", {id: "taker", class: "taker"}, trick.slapper ? `SLAP: player ${trick.slapper} slaps and takes the pile of ${trick.cards.length} cards`
            : `player ${trick.taker} takes the pile of ${trick.cards.length} cards`),
          trick.marks.length ? el("p", {class: "marks", id: "marks"}, trick.marks.join("; ")) : "");
      }
      const start = Number(params.get("step") || 0);
      go(start);
      const clicks = Number(params.get("clicks") || 0);
      for (let i = 0; i < clicks; i++) document.getElementById("next").click();
      holder.dataset.ready = "yes";
    }, (error) => holder.replaceChildren(el("p", {class: "empty"}, String(error))));
  }

  // ---- the family graph ------------------------------------------------------------
  function familyPage() {
    const svg = document.getElementById("family");
    const choose = document.getElementById("family-run");
    const back = document.getElementById("family-back");
    const status = document.getElementById("family-status");
    const params = hashParams();
    const runs = store.manifest.runs;
    if (!runs.length) { status.textContent = "no runs"; return; }
    for (const run of runs) choose.appendChild(el("option", {value: run.run}, `run ${run.run} (${run.strategy}, ${plural(run.cycles, "cycle")})`));
    const firstFactory = runs.find((r) => r.strategy === "factory") || runs[0];
    choose.value = params.get("run") || firstFactory.run;
    let view = {x: 0, y: 0, w: 1200, h: 700};
    let fitted = view;
    const apply = () => svg.setAttribute("viewBox", `${view.x} ${view.y} ${view.w} ${view.h}`);
    function fit(x0, y0, x1, y1) {
      const w = Math.max(x1 - x0, 480) * 1.1, h = Math.max(y1 - y0, 280) * 1.1;
      const scale = Math.max(w / 1200, h / 700);
      view = {w: 1200 * scale, h: 700 * scale, x: (x0 + x1) / 2 - 600 * scale, y: (y0 + y1) / 2 - 350 * scale};
      fitted = Object.assign({}, view);
      apply();
    }
    svg.addEventListener("wheel", (event) => {
      event.preventDefault();
      const box = svg.getBoundingClientRect();
      const f = event.deltaY > 0 ? 1.2 : 1 / 1.2;
      const mx = view.x + view.w * (event.clientX - box.left) / box.width;
      const my = view.y + view.h * (event.clientY - box.top) / box.height;
      view = {x: mx - (mx - view.x) * f, y: my - (my - view.y) * f, w: view.w * f, h: view.h * f};
      apply();
    }, {passive: false});
    let drag = null;
    svg.addEventListener("pointerdown", (event) => { drag = {x: event.clientX, y: event.clientY, view: Object.assign({}, view), moved: false}; });
    svg.addEventListener("pointermove", (event) => {
      if (!drag) return;
      const box = svg.getBoundingClientRect();
      const dx = (event.clientX - drag.x) * view.w / box.width, dy = (event.clientY - drag.y) * view.h / box.height;
      if (Math.abs(dx) + Math.abs(dy) > 2) drag.moved = true;
      view = Object.assign({}, drag.view, {x: drag.view.x - dx, y: drag.view.y - dy});
      apply();
    });
    svg.addEventListener("pointerup", () => { setTimeout(() => { drag = null; }, 0); });
    svg.addEventListener("click", (event) => { if (drag && drag.moved) { event.preventDefault(); event.stopPropagation(); } }, true);
    document.getElementById("family-reset").addEventListener("click", () => { view = Object.assign({}, fitted); apply(); });
    back.addEventListener("click", () => { location.hash = "run=" + choose.value; });
    choose.addEventListener("change", () => { location.hash = "run=" + choose.value; });
    window.addEventListener("hashchange", draw);

    function overview(runId, family) {
      back.hidden = true;
      const g = s("g", {id: "islands"});
      let x1 = 100, y1 = 60;
      for (const [number_, size, fair, x, y, r] of family.islands) {
        g.appendChild(s("a", {href: link("family", {run: runId, island: number_}), "data-island": number_},
          s("circle", {cx: x, cy: y, r: r, class: fair ? "island fair" : "island"}),
          s("text", {x: x, y: y + r * 0.18, class: "label", "font-size": Math.max(10, r * 0.5).toFixed(1)}, String(size)),
          s("title", {}, `island ${number_}: ${size} cycles, ${fair} reached by fair deals`)));
        x1 = Math.max(x1, x + r); y1 = Math.max(y1, y + r);
      }
      svg.replaceChildren(g);
      fit(0, 0, x1, y1);
      status.textContent = `${number(family.total)} island${family.total === 1 ? "" : "s"}; ${number(family.islands.length)} of two cycles or more drawn` +
        (family.left_out ? `, ${number(family.left_out)} not drawn (${number(family.single)} of one cycle: see the catalogue)` : "");
    }
    function island(runId, family, wanted) {
      const entry = family.islands.find((row) => row[0] === wanted);
      if (!entry) {
        status.textContent = `island ${wanted} is not drawn (a lone cycle): `;
        status.appendChild(el("a", {href: link("cycles", {run: runId, island: wanted})}, "see it in the catalogue"));
        svg.replaceChildren();
        back.hidden = false;
        return;
      }
      load(`island-${runId}-${entry[6]}`).then((group) => {
        const layout = group[String(wanted)];
        back.hidden = false;
        const edges = s("g", {class: "edges"});
        const nodes = s("g", {id: "nodes"});
        for (const [a, b, kind] of layout.edges) {
          const p = layout.nodes[a], q = layout.nodes[b];
          edges.appendChild(s("line", {x1: p[1], y1: p[2], x2: q[1], y2: q[2], class: "edge " + kind}));
        }
        let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
        for (const [cycle, x, y, fair, generation] of layout.nodes) {
          nodes.appendChild(s("a", {href: link("cycle", {run: runId, cycle: cycle}), "data-cycle": cycle},
            s("circle", {cx: x, cy: y, r: 5, class: fair ? "node fair" : "node"}),
            s("title", {}, `${cycle}${generation === null ? "" : ", generation " + generation}${fair ? ", reached by a fair deal" : ""}`)));
          x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
        }
        svg.replaceChildren(edges, nodes);
        fit(x0 - 20, y0 - 20, x1 + 20, y1 + 20);
        status.textContent = `island ${wanted}: ${number(layout.nodes.length)} cycles in layers by generation (lines: parent to child; dashed: mirrors; dotted: moves into known cycles)`;
      });
    }
    function draw() {
      const now = hashParams();
      const runId = Number(now.get("run") || choose.value);
      choose.value = runId;
      load("family-" + runId).then((family) => {
        if (now.get("island")) island(runId, family, Number(now.get("island")));
        else overview(runId, family);
        svg.dataset.ready = "yes";
        document.body.dataset.firstRowsMs = Math.round(performance.now());  // drawn
      });
    }
    draw();
  }

  function indexPage() {
    const wanted = hashParams().get("run");
    if (wanted) {
      const target = document.getElementById("run-detail-" + wanted);
      if (target) target.scrollIntoView();
    }
  }

  function start() {
    const page = document.body.dataset.page;
    const holder = document.getElementById("table");
    if (holder) table(holder);
    if (page === "cycle") { cyclePage(); window.addEventListener("hashchange", cyclePage); }
    if (page === "game") gamePage();
    if (page === "family") familyPage();
    if (page === "index") indexPage();
  }

  return {put: put, load: load, start: start, store: store};
})();
