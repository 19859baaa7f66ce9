import { describe, expect, it } from 'vitest'
import { appointmentStatuses, statusLabel } from './format'
import schema from './api/schema.d.ts?raw'

/** Every screen's source: the app's components, not their tests. */
const sources = Object.entries(import.meta.glob<string>(['/src/**/*.tsx', '!/src/**/*.test.tsx'], { query: '?raw', import: 'default', eager: true }))

describe('statusLabel', () => {
  it('knows every status the API can send', () => {
    // Every status union of the generated API schema that holds an
    // appointment's statuses (the one with no_show).
    const sent = new Set<string>()
    for (const [, union] of schema.matchAll(/status\??: ((?:"[a-z_]+"(?: \| )?)+);/g)) {
      if (!union.includes('"no_show"')) continue
      for (const [, v] of union.matchAll(/"([a-z_]+)"/g)) sent.add(v)
    }
    expect([...sent].sort()).toEqual([...appointmentStatuses].sort())
  })

  it.each([
    ['confirmed', 'Confirmado'],
    ['awaiting_deposit', 'Aguardando sinal'],
    ['cancelled', 'Cancelado'],
    ['completed', 'Concluído'],
    ['no_show', 'Não compareceu'],
    ['rescheduled', 'Outro status'],
  ])('statusLabel(%s) = %s, never the raw value', (raw, label) => expect(statusLabel(raw)).toBe(label))

  // A JSX child that prints a status field as it is: {a.status},
  // {x ? 'y' : a.status}, {label[a.status] ?? a.status} (not a class name's
  // ${a.status}, nor a prop's status={a.status}).
  const raw = /(?:(?:^|[^$=])\{|\?\?|\?|:)\s*[a-zA-Z_]+\??\.status\s*\}/

  it.each([
    ["<Badge tone={tone}>{a.status === 'confirmed' ? 'confirmado' : a.status}</Badge>", true],
    ['<span>{statusLabel[t.status] ?? t.status}</span>', true],
    ['<dd>{a.status}</dd>', true],
    ['<Badge>{statusLabel(a.status)}</Badge>', false],
    ['<StatusBadge status={a.status} />', false],
    ['<span className={`grid-status-${a.status}`}>{status}</span>', false],
  ])('the check finds a raw status in %s: %s', (line, found) => expect(raw.test(line)).toBe(found))

  it('is the only way a status reaches a screen', () => {
    expect(sources.length).toBeGreaterThan(50)
    const offenders = sources.flatMap(([path, text]) =>
      text
        .split('\n')
        .map((line, i) => [line, i] as const)
        .filter(([line]) => raw.test(line))
        .map(([line, i]) => `${path}:${i + 1}: ${line.trim()}`),
    )
    expect(offenders).toEqual([])
  })
})
