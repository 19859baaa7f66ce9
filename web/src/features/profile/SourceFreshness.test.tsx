import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import type { BusyCalendar } from '@/lib/api/endpoints/calendars'
import { OnFailureField, SourceFreshness } from './SourceFreshness'

const today = (h: number, m: number) => {
  const t = new Date()
  t.setHours(h, m, 0, 0)
  return t.toISOString()
}

const source = (over: Partial<BusyCalendar>): BusyCalendar => ({
  professionalId: 'p1', professionalName: 'Ana', kind: 'caldav', host: 'cal.example.com', account: 'ana', calendars: ['/ana/work/'], writeCalendar: '', showTitles: false, allDay: 'busy', onFailure: 'keep', events: 0,
  lastReadAt: null, lastError: '', lastErrorAt: null, failingSince: null, kept: false, writeError: null, ...over,
})

describe('SourceFreshness', () => {
  it('says where it reads, when it last did and how much it found', () => {
    render(<SourceFreshness cal={source({ lastReadAt: today(9, 5), events: 1 })} where="ana em cal.example.com" extra=" · recebe os agendamentos" />)
    expect(screen.getByText('ana em cal.example.com · lida às 09:05 · 1 compromisso à frente · recebe os agendamentos')).toBeInTheDocument()
    expect(screen.queryByRole('status')).not.toBeInTheDocument()
  })

  it('says the first read is on its way', () => {
    render(<SourceFreshness cal={source({})} where="cal.example.com" />)
    expect(screen.getByText('cal.example.com · lendo a agenda…')).toBeInTheDocument()
  })

  it('says why the last read failed, and whether the last busy times still count', () => {
    const { unmount } = render(
      <SourceFreshness cal={source({ lastReadAt: today(8, 0), events: 3, lastError: 'endereço não encontrado', lastErrorAt: today(14, 5), kept: true })} where="cal.example.com" />,
    )
    expect(screen.getByRole('status')).toHaveTextContent('Não conseguimos ler sua agenda às 14:05: endereço não encontrado. Os últimos horários ocupados continuam valendo por até 24 horas.')
    expect(screen.getByText('cal.example.com · lida às 08:00 · 3 compromissos à frente')).toBeInTheDocument()
    unmount()
    render(<SourceFreshness cal={source({ lastError: 'a agenda demorou demais para responder', lastErrorAt: today(14, 5), onFailure: 'drop' })} where="cal.example.com" />)
    expect(screen.getByRole('status')).toHaveTextContent('Não conseguimos ler sua agenda às 14:05: a agenda demorou demais para responder. Os horários ocupados dela não estão sendo considerados.')
    expect(screen.getByText('cal.example.com')).toBeInTheDocument()
  })
})

describe('OnFailureField', () => {
  it('offers keeping the last busy times for 24 hours or dropping them, under its label', async () => {
    function Form() {
      const [v, setV] = useState('keep')
      return (
        <>
          <OnFailureField id="f" label="Se o Google não puder ser lido" value={v} onChange={(e) => setV(e.target.value)} />
          <output>{v}</output>
        </>
      )
    }
    render(<Form />)
    const select = screen.getByLabelText('Se o Google não puder ser lido')
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Manter os últimos por até 24 horas', 'Liberar os horários na hora'])
    await userEvent.selectOptions(select, 'drop')
    expect(screen.getByRole('status')).toHaveTextContent('drop')
  })

  it('is labelled for an address by default', () => {
    render(<OnFailureField id="g" defaultValue="keep" />)
    expect(screen.getByLabelText('Se a agenda não puder ser lida')).toHaveValue('keep')
  })
})
