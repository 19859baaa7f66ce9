import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { fileURLToPath, URL } from 'node:url'
import { viteAliases } from './agende-aliases.ts'

// The light build of the public booking pages (agende.html, served for
// /agende/…, /booking and /cancel/…): the same pages as the full app, with
// small stand-ins for the owner app's router, data cache, toasts and forms, so a
// client's first visit stays within the page budget (scripts/budget.mjs).
// Runs after the main build, into the same dist/. Its entry is
// src/public-entry.tsx; its aliases come from agende-aliases.ts, whose list
// also gives tsconfig.agende.json's paths (src/agende/aliases.test.ts fails
// when they differ), so the pages are type-checked against exactly what this
// build gives them.
// The routes themselves come from publicroutes/public-routes.json.
export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { alias: viteAliases((p) => fileURLToPath(new URL(`./${p}`, import.meta.url))) },
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    sourcemap: false,
    // No modulepreload polyfill: every browser the build targets but the oldest
    // Safari/Firefox preloads natively, and there the modules still load, only
    // not ahead of time; its ~240 B are kept for the page budget.
    modulePreload: { polyfill: false },
    manifest: '.vite/agende-manifest.json',
    rollupOptions: {
      input: fileURLToPath(new URL('./agende.html', import.meta.url)),
      // The small modules most public pages share ride in one chunk: left to
      // themselves they made five files of 0.3–1 kB for /embed, the heaviest
      // page, each a request and a gzip stream of its own (89.5 kB now, was
      // 90.0); a page needing only some of them (the profile) takes ~0.5 kB
      // more, well within the budget.
      output: {
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: [{ name: 'shared', test: /src\/(components\/ui\/(button|avatar)\.tsx|agende\/(slot\.tsx|cva\.ts|query\.ts)|lib\/(dates|format|phone|whatsapp|query-defaults|api\/client|api\/public-keys|api\/endpoints\/get-public-profile)\.ts)$/ }],
        },
      },
    },
  },
})
