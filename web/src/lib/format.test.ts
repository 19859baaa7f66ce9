import { describe, expect, it } from 'vitest'
import { centsToInput, formatBRL, formatBRLAxis, initials, parseBRL } from './format'

describe('money', () => {
  it.each([
    [2190, 'R$ 21,90'],
    [0, 'R$ 0,00'],
    [123450, 'R$ 1.234,50'],
    [100000000, 'R$ 1.000.000,00'],
  ])('formatBRL(%i) = %s', (c, s) => expect(formatBRL(c)).toBe(s))
  it.each([
    ['21,90', 2190],
    ['21.90', 2190],
    ['21', 2100],
    ['1.234,50', 123450],
    ['R$ 15,5', 1550],
    ['abc', null],
    ['-1', null],
    ['', null],
  ])('parseBRL(%s) = %s', (s, c) => expect(parseBRL(s)).toBe(c))
  it('round trips', () => expect(parseBRL(centsToInput(2190))).toBe(2190))
})

it('initials', () => {
  expect(initials('Ana Maria Souza')).toBe('AS')
  expect(initials('ana')).toBe('A')
  expect(initials('  ')).toBe('?')
})

import { relativeDate } from './format'

it('relative dates follow the spec', () => {
  const now = new Date('2026-11-23T12:00:00Z')
  const ago = (s: number) => new Date(now.getTime() - s * 1000).toISOString()
  expect(relativeDate(ago(30), now)).toBe('Agora')
  expect(relativeDate(ago(60), now)).toBe('há 1 minuto')
  expect(relativeDate(ago(5 * 60), now)).toBe('há 5 minutos')
  expect(relativeDate(ago(3 * 3600), now)).toBe('há 3 horas')
  expect(relativeDate(ago(30 * 3600), now)).toBe('Ontem')
  expect(relativeDate(ago(6 * 86400), now)).toBe('há 6 dias')
  expect(relativeDate(ago(8 * 86400), now)).toBe('15/11/2026')
})

describe('chart axis money (issue 39)', () => {
  it.each([
    [18000, 'R$ 18.000'],
    [0, 'R$ 0'],
    [2500, 'R$ 2.500'],
    [1234567, 'R$ 1.234.567'],
  ])('formatBRLAxis(%i) = %s', (v, s) => expect(formatBRLAxis(v)).toBe(s))
})
