import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { fileURLToPath, URL } from 'node:url'

const src = (p: string) => fileURLToPath(new URL(`./src/${p}`, import.meta.url))

// The light build of the public booking pages (agende.html, served for
// /agende/…, /booking and /cancel/…): the same pages as the full app, with
// small stand-ins for the owner app's router, data cache, toasts and forms, so a
// client's first visit stays within the page budget (scripts/budget.mjs).
// Runs after the main build, into the same dist/. tsconfig.agende.json maps
// the same names to the same stand-ins for `tsc`, so the pages are checked
// against exactly what this build gives them: keep the two in step.
// The routes themselves come from publicroutes/public-routes.json.
export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: [
      { find: /^@\/lib\/utils$/, replacement: src('agende/utils.ts') },
      { find: /^@radix-ui\/react-slot$/, replacement: src('agende/slot.tsx') },
      { find: /^class-variance-authority$/, replacement: src('agende/cva.ts') },
      { find: /^\.\.?\/createLucideIcon\.mjs$/, replacement: src('agende/lucide.ts') },
      { find: '@', replacement: src('') },
      { find: /^react-router$/, replacement: src('agende/router.tsx') },
      { find: /^@tanstack\/react-query$/, replacement: src('agende/query.ts') },
      { find: /^sonner$/, replacement: src('agende/toast.ts') },
      { find: /^react-hook-form$/, replacement: src('agende/form.ts') },
      { find: /^@hookform\/resolvers\/zod$/, replacement: src('agende/resolver.ts') },
      { find: /^sonner-real$/, replacement: fileURLToPath(new URL('./node_modules/sonner/dist/index.mjs', import.meta.url)) },
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    sourcemap: false,
    // No modulepreload polyfill: every browser the build targets but the oldest
    // Safari/Firefox preloads natively, and there the modules still load, only
    // not ahead of time; its ~240 B are kept for the page budget.
    modulePreload: { polyfill: false },
    manifest: '.vite/agende-manifest.json',
    rollupOptions: { input: fileURLToPath(new URL('./agende.html', import.meta.url)) },
  },
})
