/* The offline queue of the entry pages (docs/player-entry.md).

   Every deal confirmed on a referee's match page or a table's page goes into IndexedDB first, with
   its idempotency key and the state it was entered against (the match version, or the deal number
   for players), and is then sent, in order, one at a time. When the connection drops the deals
   stay on the phone (a reload keeps them) and are sent when it returns. The server decides: its
   idempotency keys make a deal sent twice one deal, its versions refuse a deal entered against a
   state that is gone. The phone shows "3 deals waiting to send" and, for each deal sent, what
   became of it: accepted, already recorded, or refused with the reason.

   An answer that is not the server's verdict on the deal stops the sending and says why, the deals
   kept: a redirect or 401 (signed out: "sign in again", a link back to this page through the login),
   a 403 page that is not JSON (the CSRF check: a sign-in since the page was loaded rotated the token;
   "reload"), a 404 page (the table is no longer this person's: "reload" shows why), or the table's
   "say who you are first" (the phone's session ended). Each send carries the
   page's current CSRF token, not the one of the page the deal was entered on, so once the person has
   signed in again (or reloaded, or said who they are) the deals go, each once (its idempotency key).
   Anything else that is not JSON (a proxy's page, a 500) is tried again later, quietly.

   A deal refused stays on the phone with the server's reason until the person resolves it: "Edit"
   opens it in the entry (its fields as the page's query) and what is then confirmed takes its place
   in the queue; "Discard" drops it. A refusal because someone else entered that deal (stale_number,
   stale_version) leaves its place filled, and one of the match as a whole (over, signed off) refuses
   the deals after it for the same reason: those are sent. Any other refusal (of the deal itself)
   leaves its place empty, so the deals after it wait (held) — sent then, they would be refused as
   "already entered" — and once it is resolved they follow the page's state again, in order.

   Offline the taps are kept here (Guandan: partners 1st and 2nd, or three seats, make a finishing
   order, as the server's taps_complete); the preview waits for the server. Without JavaScript the
   pages still work online (forms and links). */
(function () {
  "use strict";

  var DB_NAME = "deal-queue";
  var STORE = "deals";
  var dbPromise = null;
  var flushing = false;
  var blocked = null;  // why the deals cannot be sent now: "signed-out", "stale", "gone" or "identify"
  var EDITING = "deal-queue-editing";  // sessionStorage: the refused deal being edited (its key)
  // Refusals that hold nothing back: someone else entered that deal (its place is filled), or the
  // match refuses every deal now (over, signed off, a bye, a flagged or missing deal first) — the deals
  // after it are sent and answered with that same reason, never "already entered".
  var HOLDS_NOTHING = ["stale_number", "stale_version", "match_finished", "match_locked", "bye", "flagged_deals",
    "deal_missing"];

  function db() {
    if (!dbPromise) {
      dbPromise = new Promise(function (resolve, reject) {
        var request = indexedDB.open(DB_NAME, 1);
        request.onupgradeneeded = function () {
          var store = request.result.createObjectStore(STORE, { keyPath: "key" });
          store.createIndex("scope", "scope");
        };
        request.onsuccess = function () { resolve(request.result); };
        request.onerror = function () { reject(request.error); };
      });
    }
    return dbPromise;
  }

  function tx(mode, work) {
    return db().then(function (database) {
      return new Promise(function (resolve, reject) {
        var transaction = database.transaction(STORE, mode);
        var result = work(transaction.objectStore(STORE));
        transaction.oncomplete = function () { resolve(result && result.result !== undefined ? result.result : result); };
        transaction.onerror = function () { reject(transaction.error); };
      });
    });
  }

  function all(scope) {
    return tx("readonly", function (store) { return store.index("scope").getAll(scope); }).then(function (items) {
      return (items || []).sort(function (a, b) { return a.created - b.created; });
    });
  }

  function put(item) { return tx("readwrite", function (store) { return store.put(item); }); }
  function remove(key) { return tx("readwrite", function (store) { return store["delete"](key); }); }

  function box() { return document.getElementById("deal-queue"); }
  function scope() { var el = box(); return el ? el.getAttribute("data-queue-scope") : null; }
  function word(name, values) {
    var text = (box() && box().getAttribute("data-w-" + name)) || name;
    Object.keys(values || {}).forEach(function (key) { text = text.split("{" + key + "}").join(values[key]); });
    return text;
  }

  // A finishing order in the page's language ("名次：北 › 南", "Finishing order: North › South"),
  // never the seats' letters.
  function orderLabel(seats) {
    return word("order-seats", { seats: seats.map(function (seat) { return word("seat-" + seat); }).join(" › ") });
  }

  // The entry's heading names the deal being entered: offline, after the deals waiting on the phone
  // (the ninth deal entered reads "Deal 9", not the page's number when it was loaded).
  function renderHeading(items) {
    // the line "Next: deal 6, played at 8" is the server's: while deals wait on the phone it would
    // name a deal already entered (and the level is not known here), so it steps aside
    var pending = items.some(function (item) { return item.state === "waiting"; });
    document.querySelectorAll("[data-next-deal]").forEach(function (line) { line.hidden = pending; });
    var heading = document.querySelector("#entry[data-post-url] [data-deal-heading]");
    if (!heading) { return; }
    if (!heading.hasAttribute("data-page-text")) { heading.setAttribute("data-page-text", heading.textContent); }
    var waiting = items.filter(function (item) { return item.state === "waiting"; });
    if (!waiting.length) {
      heading.textContent = heading.getAttribute("data-page-text");
      return;
    }
    // the page's deal (after what the server had when it was loaded), moved on by those not yet sent
    var number = parseInt(heading.getAttribute("data-deal-heading") || "0", 10);
    if (number) { heading.textContent = word("deal", { n: number + waiting.length }); }
  }

  // The refused deal that holds the deals after it (its place in the match is still empty).
  function holding(items) {
    return items.filter(function (item) { return item.state === "refused" && item.holds; })[0] || null;
  }

  function isHeld(item, items) {
    var holder = holding(items);
    return !!holder && item.state === "waiting" && item.created > holder.created;
  }

  function newKey() {
    if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID().replace(/-/g, ""); }
    return String(Date.now()) + Math.random().toString(16).slice(2);
  }

  function csrfToken(form) {
    var input = (form && form.querySelector("input[name=csrfmiddlewaretoken]")) ||
      document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  // -- what the page shows ----------------------------------------------------------------------

  var RECENT_MS = 60000;  // how long a sent deal's answer ("deal 6: accepted") stays listed

  function render() {
    var current = scope();
    if (!current) { return Promise.resolve(); }
    return all(current).then(function (items) {
      var status = document.getElementById("queue-status");
      var results = document.getElementById("queue-results");
      if (!status || !results) { return; }
      var waiting = items.filter(function (item) { return item.state === "waiting"; });
      renderBlocked(waiting.length ? blocked : null);
      renderHeading(items);
      var held = waiting.filter(function (item) { return isHeld(item, items); }).length;
      if (waiting.length) {
        status.textContent = waiting.length === 1 ? word("waiting-one") : word("waiting-many", { n: waiting.length });
        if (held) { status.textContent += " · " + word("held", { n: holding(items).number }); }
        if (!navigator.onLine) { status.textContent += " · " + word("offline"); }
        status.className = "queue-status" + (navigator.onLine ? "" : " offline");
        status.hidden = false;
      } else if (!navigator.onLine) {
        status.textContent = word("offline");
        status.className = "queue-status offline";
        status.hidden = false;
      } else {
        status.hidden = true;
      }
      // the refused ones stay until resolved; of the others, those of the last sending (one deal
      // entered online: one answer; three kept offline: their three), if answered in the last minute
      // (long enough to read them after the page reloads; they do not pile up above the scoreboard)
      var done = items.filter(function (item) { return item.state !== "waiting"; });
      var recent = Date.now() - RECENT_MS;
      var sent = done.filter(function (item) { return item.state !== "refused" && (item.answeredAt || 0) > recent; });
      var lastBatch = Math.max.apply(null, [0].concat(sent.map(function (item) { return item.batch || 0; })));
      sent = sent.filter(function (item) { return (item.batch || 0) === lastBatch; }).slice(-3);
      done = done.filter(function (item) { return item.state === "refused" || sent.indexOf(item) >= 0; });
      results.innerHTML = "";
      done.forEach(function (item) {
        var li = document.createElement("li");
        li.className = item.state;
        li.setAttribute("data-result", item.state);
        li.setAttribute("data-key", item.key);
        li.textContent = word(item.state, { n: item.number || "", reason: item.message || "" });
        if (item.state === "refused") {
          li.appendChild(document.createTextNode(" · " + item.label + " "));
          [["edit", "data-queue-edit"], ["discard", "data-queue-discard"]].forEach(function (action) {
            var button = document.createElement("button");
            button.type = "button";
            button.className = "link";
            button.setAttribute(action[1], item.key);
            button.textContent = word(action[0]);
            li.appendChild(button);
            li.appendChild(document.createTextNode(" "));
          });
        }
        results.appendChild(li);
      });
      if (sent.length) {
        var clear = document.createElement("button");
        clear.type = "button";
        clear.className = "link";
        clear.setAttribute("data-queue-clear", "");
        clear.textContent = word("clear");
        var li = document.createElement("li");
        li.className = "queue-clear";
        li.appendChild(clear);
        results.appendChild(li);
      }
      results.hidden = done.length === 0;
      var waitingList = document.getElementById("queue-waiting");
      if (waitingList) { waitingList.remove(); }
      if (waiting.length) {
        var list = document.createElement("ul");
        list.id = "queue-waiting";
        list.className = "queue-results";
        waiting.forEach(function (item) {
          var li = document.createElement("li");
          li.setAttribute("data-waiting", item.key);
          if (isHeld(item, items)) { li.setAttribute("data-held", ""); }
          li.textContent = item.label;
          list.appendChild(li);
        });
        status.insertAdjacentElement("afterend", list);
      }
    });
  }

  // why nothing is sent, and what to do: a link to sign in (back to this page) or to reload it
  function renderBlocked(kind) {
    var note = document.getElementById("queue-blocked");
    if (!note) { return; }
    note.innerHTML = "";
    note.hidden = !kind;
    if (!kind) { return; }
    note.setAttribute("data-blocked", kind);
    note.appendChild(document.createTextNode(word(kind) + " "));
    var link = document.createElement("a");
    if (kind === "signed-out") {
      link.href = box().getAttribute("data-login-url") + "?next=" + encodeURIComponent(window.location.pathname + window.location.search);
      link.textContent = word("sign-in");
    } else {
      link.href = window.location.pathname + window.location.search;
      link.textContent = word("reload");
    }
    note.appendChild(link);
  }

  // -- putting a deal in the queue -----------------------------------------------------------------

  // The state the next deal is entered against: the page's, moved on by the deals still waiting.
  function expected(entry, items) {
    var version = parseInt(entry.getAttribute("data-version") || "0", 10);
    var number = parseInt(entry.getAttribute("data-number") || "0", 10);
    var waiting = items.filter(function (item) { return item.state === "waiting"; });
    if (waiting.length) {
      var last = waiting[waiting.length - 1];
      version = Math.max(version, last.version + 1);
      number = number ? Math.max(number, last.number + 1) : 0;
    }
    return { version: version, number: number };
  }

  function enqueue(form, entry, label) {
    var current = scope();
    return all(current).then(function (items) {
      var data = new FormData(form);
      var editing = editedItem(items);
      // an edited deal goes where the refused one was: first, on the page's state (the server's)
      var state = editing ? expected(entry, []) : expected(entry, items);
      var key = (data.get("idempotency_key") || "").toString();
      // a double tap, or the same form sent again: that deal is already in the queue
      if (key && items.some(function (item) { return item.key === key; })) { return false; }
      if (!key) { key = newKey(); }
      data.set("idempotency_key", key);
      data.set("version", String(state.version));
      if (state.number) { data.set("number", String(state.number)); }
      if (!data.get("csrfmiddlewaretoken")) { data.set("csrfmiddlewaretoken", csrfToken(form)); }
      var body = new URLSearchParams();
      data.forEach(function (value, name) { body.append(name, value.toString()); });
      return put({
        key: key,
        scope: current,
        url: entry.getAttribute("data-post-url"),
        body: body.toString(),
        version: state.version,
        number: state.number || (state.version + 1),
        label: label,
        state: "waiting",
        created: editing ? editing.created : Date.now() + items.length / 1000
      }).then(function () {
        if (!editing) { return true; }
        window.sessionStorage.removeItem(EDITING);
        return remove(editing.key).then(function () { return rebase(state); });
      });
    });
  }

  function editedItem(items) {
    var key = window.sessionStorage && window.sessionStorage.getItem(EDITING);
    return items.filter(function (item) { return item.key === key && item.state === "refused"; })[0] || null;
  }

  // The deals waiting once a refusal is resolved follow ``from`` (the page's state: the server's),
  // one after another in their order, as when they were entered.
  function rebase(from) {
    return all(scope()).then(function (items) {
      var waiting = items.filter(function (item) { return item.state === "waiting"; });
      return Promise.all(waiting.map(function (item, index) {
        var body = new URLSearchParams(item.body);
        item.version = from.version + index;
        body.set("version", String(item.version));
        item.number = from.number ? from.number + index : item.version + 1;
        if (from.number) { body.set("number", String(item.number)); }
        item.body = body.toString();
        return put(item);
      }));
    });
  }

  function resetEntry(entry) {
    entry.setAttribute("data-taps", "");
    entry.removeAttribute("data-local-taps");
    entry.querySelectorAll(".seat").forEach(function (seat) { seat.classList.remove("tapped"); });
    var local = entry.querySelector(".offline-entry");
    if (local) { local.remove(); }
    var taps = entry.querySelector("ol.taps");
    if (taps) { taps.remove(); }
  }

  // -- sending --------------------------------------------------------------------------------------

  function Blocked(kind) { this.kind = kind; }

  function send(item) {
    var body = new URLSearchParams(item.body);
    var token = csrfToken(null);  // the page's token: a sign-in since the deal was entered rotated it
    if (token) { body.set("csrfmiddlewaretoken", token); }
    return fetch(item.url, {
      method: "POST",
      body: body.toString(),
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Deal-Queue": "1",
        "X-CSRFToken": body.get("csrfmiddlewaretoken") || ""
      }
    }).then(function (response) {
      var json = (response.headers.get("Content-Type") || "").indexOf("application/json") === 0;
      // the login page after a redirect (the session ended), or a refusal to say who is asking
      if (response.redirected || response.status === 401) { throw new Blocked("signed-out"); }
      if (!json && response.status === 403) { throw new Blocked("stale"); }  // the CSRF check's page
      if (!json && response.status === 404) { throw new Blocked("gone"); }  // no longer this person's table
      if (!json && response.ok) { throw new Blocked("signed-out"); }  // a page, not the server's answer
      return response.json().catch(function () {
        // not the server's answer (a proxy's page, a 500): try again later
        throw new Error("no answer " + response.status);
      }).then(function (answer) {
        if (answer.code === "identify_first") { throw new Blocked("identify"); }
        return answer;
      });
    });
  }

  function flush() {
    var current = scope();
    if (!current || flushing || !navigator.onLine) { return Promise.resolve(false); }
    flushing = true;
    var sent = false;
    var batch = Date.now();  // the deals answered in this sending, shown together
    function next() {
      return all(current).then(function (items) {
        var item = items.filter(function (i) { return i.state === "waiting"; })[0];
        if (!item || isHeld(item, items)) { return sent; }
        return send(item).then(function (answer) {
          blocked = null;
          item.state = answer.result === "accepted" || answer.result === "already" ? answer.result : "refused";
          item.answeredAt = Date.now();
          item.batch = batch;
          item.message = answer.message || answer.code || "";
          item.holds = item.state === "refused" && HOLDS_NOTHING.indexOf(answer.code) < 0;
          if (answer.number) { item.number = answer.number; }
          sent = true;
          var entry = document.querySelector("#entry[data-post-url]");
          if (entry && item.state !== "refused") {
            // the page's state moves on with what the server recorded, until the page reloads
            entry.setAttribute("data-version", String(Math.max(parseInt(entry.getAttribute("data-version") || "0", 10), item.version + 1)));
            if (entry.getAttribute("data-number")) { entry.setAttribute("data-number", String(item.number + 1)); }
          }
          return put(item).then(render).then(next);
        });
      });
    }
    return next().catch(function (error) {
      if (error instanceof Blocked) { blocked = error.kind; }
      return sent;
    }).then(function (any) {
      flushing = false;
      return render().then(function () { return any; });
    }).then(function (any) {
      // the page as the server now has it (the results stay listed: they are kept on the phone), its entry
      // empty for the next deal: the sent deal's preview fields leave the address, or they would fill the
      // next deal's form with the last one (and the rules core would refuse it at once)
      if (any && navigator.onLine) { window.location.replace(withoutEntryFields()); }
      return any;
    });
  }

  function withoutEntryFields() {
    var params = new URLSearchParams(window.location.search);
    var form = document.querySelector("#entry form[method=get]");
    if (form) {
      Array.prototype.forEach.call(form.elements, function (field) { if (field.name) { params["delete"](field.name); } });
    }
    var query = params.toString();
    return window.location.pathname + (query ? "?" + query : "");
  }

  // "Clear": forget what became of the deals sent (the waiting and the refused ones stay)
  document.addEventListener("click", function (event) {
    if (!event.target.closest || !event.target.closest("[data-queue-clear]")) { return; }
    all(scope()).then(function (items) {
      return Promise.all(items.filter(function (item) {
        return item.state === "accepted" || item.state === "already";
      }).map(function (item) { return remove(item.key); }));
    }).then(render);
  });

  // A refused deal: "Edit" opens it in the entry, "Discard" drops it; the deals it held follow.
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-queue-edit], [data-queue-discard]") : null;
    if (!button) { return; }
    var editKey = button.getAttribute("data-queue-edit");
    var key = editKey || button.getAttribute("data-queue-discard");
    all(scope()).then(function (items) {
      var item = items.filter(function (i) { return i.key === key; })[0];
      if (!item) { return render(); }
      if (editKey) {
        var fields = new URLSearchParams(item.body);
        ["csrfmiddlewaretoken", "idempotency_key", "version", "number"].forEach(function (name) { fields["delete"](name); });
        window.sessionStorage.setItem(EDITING, item.key);
        window.location.assign(window.location.pathname + "?" + fields.toString());
        return null;
      }
      var entry = document.querySelector("#entry[data-post-url]");
      return remove(item.key).then(function () {
        return entry ? rebase(expected(entry, [])) : null;
      }).then(render).then(flush);
    });
  });

  // -- offline taps (Guandan) and the offline form (any game) --------------------------------------

  var PARTNER = { N: "S", S: "N", E: "W", W: "E" };

  function complete(taps) {
    if (taps.length === 2) { return PARTNER[taps[0]] === taps[1]; }
    return taps.length >= 3;
  }

  function offlineForm(entry, fields, label) {
    var old = entry.querySelector(".offline-entry");
    if (old) { old.remove(); }
    var form = document.createElement("form");
    form.method = "post";
    form.action = entry.getAttribute("data-post-url");
    form.className = "offline-entry stack";
    form.setAttribute("data-queue-form", "");
    form.setAttribute("data-label", label);
    var text = document.createElement("p");
    text.className = "muted small";
    text.textContent = label + " · " + word("unpreviewed");
    form.appendChild(text);
    fields.idempotency_key = fields.idempotency_key || newKey();  // one deal, however often it is tapped
    Object.keys(fields).forEach(function (name) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = fields[name];
      form.appendChild(input);
    });
    var button = document.createElement("button");
    button.type = "submit";
    button.className = "big";
    button.textContent = word("save");
    form.appendChild(button);
    entry.appendChild(form);
    return form;
  }

  function tapOffline(seatLink) {
    var entry = seatLink.closest("#entry");
    var seat = seatLink.classList.contains("seat-N") ? "N" : seatLink.classList.contains("seat-E") ? "E" :
      seatLink.classList.contains("seat-S") ? "S" : "W";
    var taps = (entry.getAttribute("data-taps") || "").split("").filter(Boolean);
    if (taps.indexOf(seat) >= 0 || complete(taps)) { return; }
    taps.push(seat);
    entry.setAttribute("data-taps", taps.join(""));
    entry.setAttribute("data-local-taps", "");
    seatLink.classList.add("tapped");
    if (complete(taps)) {
      offlineForm(entry, { order: taps.join("") }, orderLabel(taps));
    }
  }

  document.addEventListener("click", function (event) {
    var seat = event.target.closest ? event.target.closest("#entry .seat-grid a.seat") : null;
    // a deal begun offline is finished here even if the network is back (the links know nothing
    // of the taps kept by the script)
    if (!seat || (navigator.onLine && !seat.closest("#entry").hasAttribute("data-local-taps"))) { return; }
    event.preventDefault();
    event.stopPropagation();
    tapOffline(seat);
  }, true);

  // A failed tap request (the network dropped between two taps): take the tap here instead.
  document.addEventListener("htmx:sendError", function (event) {
    var seat = event.target.closest ? event.target.closest("#entry .seat-grid a.seat") : null;
    if (seat) { tapOffline(seat); }
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var entry = form.closest ? form.closest("#entry[data-post-url]") : null;
    if (!entry || !scope()) { return; }
    var posting = (form.method || "").toLowerCase() === "post" && form.getAttribute("action") === entry.getAttribute("data-post-url");
    var previewOffline = (form.method || "get").toLowerCase() === "get" && !navigator.onLine;
    if (!posting && !previewOffline) { return; }
    event.preventDefault();
    event.stopPropagation();
    if (form.getAttribute("data-queued")) { return; }  // a double tap: the first one is queued
    form.setAttribute("data-queued", "1");
    var label = form.getAttribute("data-label");
    if (!label) {
      var order = form.querySelector("input[name=order]");
      var points = form.querySelector("[name=defender_points]");
      var landlord = form.querySelector("input[type=hidden][name=landlord], [name=landlord]:checked");
      label = order ? orderLabel(order.value.split("")) :
        (points ? points.value : (landlord ? word("seat-" + landlord.value) : ""));
    }
    if (previewOffline) {
      // a game entered by fields (Tractor): no preview offline; the fields, as entered, wait for
      // "Save (offline)" (the next submit, a post to the entry's address)
      var fields = {};
      new FormData(form).forEach(function (value, name) { fields[name] = value.toString(); });
      form.removeAttribute("data-queued");
      offlineForm(entry, fields, label);
      return;
    }
    enqueue(form, entry, label).then(function () {
      resetEntry(entry);
      return render();
    }).then(flush);
  }, true);

  // -- start ----------------------------------------------------------------------------------------

  function start() {
    if (!scope() || !window.indexedDB) { return; }
    var sw = box().getAttribute("data-sw");
    if (sw && navigator.serviceWorker) {
      navigator.serviceWorker.register(sw, { scope: "/" }).catch(function () { /* pages work without it */ });
      if (!navigator.serviceWorker.controller && window.caches && navigator.onLine) {
        // this first visit came before the worker: keep the page and its files for a reload offline
        var files = [window.location.pathname];
        document.querySelectorAll("script[src], link[rel=stylesheet][href]").forEach(function (el) {
          files.push(el.getAttribute("src") || el.getAttribute("href"));
        });
        window.caches.open("entry-pages-v1").then(function (cache) { return cache.addAll(files); }).catch(function () {});
      }
    }
    render().then(flush);
  }

  window.addEventListener("online", function () { render().then(flush); });
  window.addEventListener("offline", render);
  window.setInterval(function () { if (navigator.onLine) { flush(); } }, 4000);
  document.addEventListener("htmx:afterSwap", render);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }

  window.dealQueue = { flush: flush, render: render, all: function () { return all(scope()); }, remove: remove };
})();
