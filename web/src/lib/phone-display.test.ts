import { describe, expect, it } from 'vitest'
import { formatPhone } from './phone'

/** Every screen's source: the app's components, not their tests. */
const sources = Object.entries(import.meta.glob<string>(['/src/**/*.tsx', '!/src/**/*.test.tsx'], { query: '?raw', import: 'default', eager: true }))

describe('phones on screen (issue 39)', () => {
  it.each([
    ['11974442812', '(11) 97444-2812'],
    ['+55 11 97444-2812', '(11) 97444-2812'],
    ['1133334444', '(11) 3333-4444'],
    ['ana@x.com', 'ana@x.com'],
  ])('formatPhone(%s) = %s', (raw, shown) => expect(formatPhone(raw)).toBe(shown))

  // A JSX child that prints a phone field as it is: {a.clientPhone},
  // {c.phone}, ({status.displayPhoneNumber}), [c.phone, c.email].join(…).
  const raw = /(?:(?:^|[^$=])\{|\[)\s*[a-zA-Z_]+\??\.(?:clientPhone|phone|[a-zA-Z]*PhoneNumber)\s*[},]/

  it.each([
    ['<MessageCircle /> {a.clientPhone}', true],
    ['WhatsApp {c.phone}', true],
    ["{[c.phone, c.email].filter(Boolean).join(' · ')}", true],
    ['Conectado: {status.verifiedName} ({status.displayPhoneNumber})', true],
    ['{formatPhone(a.clientPhone)}', false],
    ['<DepositPanel clientPhone={a.clientPhone} />', false],
  ])('the check finds a raw phone in %s: %s', (line, found) => expect(raw.test(line)).toBe(found))

  it('every phone a screen shows goes through formatPhone', () => {
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
