// SPDX-License-Identifier: GPL-2.0-or-later
// Values computed by V8 (its JIT on a hot loop), a Map, JSON, a promise
// chain and a timer (libuv's event loop), crypto's sha256 (OpenSSL).
"use strict";
const crypto = require("crypto");

class Shape {
  constructor(name, sides) { this.name = name; this.sides = sides; }
  get angles() { return (this.sides - 2) * 180; }
}
const shapes = [new Shape("triangle", 3), new Shape("square", 4), new Shape("hexagon", 6)];
console.log(shapes.map((s) => `${s.name}=${s.angles}`).join(","));
const counts = new Map();
for (const w of "the quick brown fox jumps over the lazy dog the end".split(" "))
  counts.set(w, (counts.get(w) || 0) + 1);
console.log(JSON.stringify([...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 3)));
let sum = 0;
for (let i = 0; i < 5e6; i++) sum = (sum + i * i) % 1000000007;
console.log("hot loop", sum);
console.log("2n**100n", (2n ** 100n).toString());
console.log("sha256", crypto.createHash("sha256").update("asymu").digest("hex").slice(0, 16));
Promise.resolve(20)
  .then((v) => new Promise((resolve) => setTimeout(() => resolve(v + 22), 10)))
  .then((v) => console.log("promise", v));
