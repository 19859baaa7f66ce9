import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { expect, it } from 'vitest'
import { DateTimeFields } from './DateTimeFields'

it('labels a date and a time in 5-minute steps, each described by its error', async () => {
  function Move() {
    const [date, setDate] = useState('2026-12-01')
    return (
      <DateTimeFields
        date={{ id: 'd', label: 'Nova data', value: date, onChange: (e) => setDate(e.target.value) }}
        time={{ id: 't', label: 'Novo horário', error: 'Escolha o horário.', defaultValue: '' }}
      />
    )
  }
  render(<Move />)
  const date = screen.getByLabelText('Nova data')
  expect(date).toHaveAttribute('type', 'date')
  expect(date).not.toHaveAttribute('step')
  const time = screen.getByLabelText('Novo horário')
  expect(time).toHaveAttribute('type', 'time')
  expect(time).toHaveAttribute('step', '300')
  expect(time).toHaveAccessibleDescription('Escolha o horário.')
  expect(time).toHaveAttribute('aria-invalid', 'true')
  await userEvent.setup().type(time, '09:30')
  expect(time.parentElement!.parentElement).toHaveClass('grid-cols-2')
})

it('lays out a block: the date alone, what goes between, and a start and end unless the day is whole', () => {
  const fields = (whole: boolean) => (
    <DateTimeFields
      date={{ id: 'b-date', label: 'Data *' }}
      between={<p>Dia inteiro</p>}
      time={whole ? undefined : { id: 'b-start', label: 'Início *' }}
      end={whole ? undefined : { id: 'b-end', label: 'Fim *' }}
    />
  )
  const { rerender } = render(fields(false))
  expect(screen.getByLabelText('Início *')).toHaveAttribute('step', '300')
  expect(screen.getByLabelText('Fim *')).toHaveAttribute('type', 'time')
  expect(screen.getByText('Dia inteiro').compareDocumentPosition(screen.getByLabelText('Início *')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
  rerender(fields(true))
  expect(screen.getByLabelText('Data *')).toBeInTheDocument()
  expect(screen.queryByLabelText('Início *')).toBeNull()
  expect(screen.queryByLabelText('Fim *')).toBeNull()
})
