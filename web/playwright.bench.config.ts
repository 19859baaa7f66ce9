import { defineConfig } from '@playwright/test'
import e2e from './playwright.config'

const servers = [e2e.webServer ?? []].flat() as { command: string }[]

// `make bench`'s browser measurements: the e2e server and browser (the real
// `agendei serve` on a fresh data dir, Debian's Chromium with the e2e flags),
// but the specs of bench/ (*.bench.ts, never run by `make test`), one at a
// time so the runs do not compete for the CPU. Timings are printed, never
// asserted: a slow run on a busy machine does not fail the build.
// BENCH_BIN runs another build of agendei (e.g. a copy of the binary before a
// change, for a before/after comparison on the same machine).
export default defineConfig({
  ...e2e,
  testDir: './bench',
  testMatch: '**/*.bench.ts',
  timeout: 15 * 60_000,
  workers: 1,
  // The e2e servers (agendei and the fakes it talks to), agendei's the one BENCH_BIN replaces.
  webServer: servers.map((s) => ({ ...s, command: process.env.BENCH_BIN ? s.command.replace('../bin/agendei', process.env.BENCH_BIN) : s.command })),
})
