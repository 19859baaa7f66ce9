// Page budget: the JavaScript a first visit to each public booking route
// downloads (the entry, the route's chunk and everything they import
// statically), gzipped, from Vite's build manifest. Fails above the budget.
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { join } from 'node:path'

// A dist folder may be named (to measure another build); web/dist by default.
const dist = process.argv.find((a, i) => i > 1 && !a.startsWith('-')) ?? new URL('../dist/', import.meta.url).pathname
const budget = 100 * 1000 // bytes of gzipped JavaScript
// The public booking routes (their one list), served from agende.html
// (vite.agende.config.ts): route path -> page source file.
const list = JSON.parse(readFileSync(new URL('../publicroutes/public-routes.json', import.meta.url), 'utf8'))
const routes = Object.fromEntries(list.routes.map((r) => [r.path, r.page]))

const manifest = JSON.parse(readFileSync(join(dist, '.vite/agende-manifest.json'), 'utf8'))
const entry = Object.keys(manifest).find((k) => manifest[k].isEntry)
const gz = new Map()
const size = (file) => {
  if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(join(dist, file)), { level: 9 }).length)
  return gz.get(file)
}

function closure(keys) {
  const seen = new Set()
  const walk = (k) => {
    if (seen.has(k)) return
    if (!manifest[k]) throw new Error(`${k} is not in the build manifest`)
    seen.add(k)
    for (const i of manifest[k].imports ?? []) walk(i)
  }
  keys.forEach(walk)
  return [...seen].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'))
}

let failed = false
for (const [route, src] of Object.entries(routes)) {
  const files = closure([entry, src])
  const total = files.reduce((n, f) => n + size(f), 0)
  const ok = total <= budget
  failed ||= !ok
  console.log(`${ok ? 'ok  ' : 'OVER'} ${route}: ${(total / 1000).toFixed(1)} kB gzipped JS (budget ${budget / 1000} kB)`)
  if (!ok || process.argv.includes('-v')) {
    for (const f of files.sort((a, b) => size(b) - size(a))) console.log(`       ${(size(f) / 1000).toFixed(1).padStart(6)} kB  ${f}`)
  }
}
process.exit(failed ? 1 : 0)
