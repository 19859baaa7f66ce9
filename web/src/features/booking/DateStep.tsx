import { DatePicker } from './DatePicker'
import { Section } from './BookingSection'
import type { BookingSteps } from './use-booking'

/** Step 4: the date, among the free days of the booking window (full ones read "lotado" and offer the waitlist). */
export function DateStep({ steps }: { steps: BookingSteps }) {
  return (
    <Section n={4} title="Escolha a data">
      <DatePicker
        month={steps.month}
        onMonth={steps.setMonth}
        value={steps.date}
        minMonth={steps.today.slice(0, 7)}
        maxMonth={steps.lastDate ? steps.lastDate.slice(0, 7) : undefined}
        isEnabled={steps.isEnabled}
        isFull={steps.isFull}
        onChange={(d) => steps.pick({ date: d, time: '' })}
      />
    </Section>
  )
}
