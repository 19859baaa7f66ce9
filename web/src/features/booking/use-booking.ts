import { useEffect, useState } from 'react'
import { toast } from 'sonner'
import { useAddressState } from '@/lib/address-state'
import type { Schemas } from '@/lib/api/client'
import { todayLocal, weekday } from '@/lib/dates'
import { useBookableDays } from './api/get-bookable-days'
import { useFreeTimes } from './api/get-free-times'

/** "Qualquer profissional": the server books whoever is free (the least busy that day). */
export const anyone = { id: 'any', name: 'Qualquer profissional', specialization: '', photoUrl: '', headline: '' }

export type BookingSteps = ReturnType<typeof useBookingSteps>

/**
 * The booking's picks — service, professional, date and time — kept in the
 * address (search params, replaced, not pushed), so a reload or a shared link
 * reproduces the page; each pick clears the picks that depend on it. Also the
 * month the calendar shows and the free days and times of the picks.
 */
export function useBookingSteps(profile: Schemas['PublicProfile']) {
  const [search, setAddress] = useAddressState()
  const serviceId = search.get('service') ?? ''
  const date = search.get('date') ?? ''
  const time = search.get('time') ?? ''
  // The owner's today and last bookable date (their zone, their booking window).
  const today = profile.firstBookableDate || todayLocal()
  const lastDate = profile.lastBookableDate
  const service = profile.services.find((s) => s.id === serviceId)
  const professionals = service && service.professionalIds.length > 0 ? profile.professionals.filter((p) => service.professionalIds.includes(p.id)) : profile.professionals
  const professionalId = search.get('professional') ?? (professionals.length === 1 ? professionals[0].id : '')
  // With several professionals the client may leave the choice to the practice:
  // the free times are theirs together, and the server picks one who is free.
  const professional = professionalId === anyone.id && professionals.length > 1 ? anyone : professionals.find((p) => p.id === professionalId)
  const [month, setMonth] = useState((date || today).slice(0, 7))

  // Sets the params given, in one replaced entry; an empty value removes its param.
  const set = (values: Record<string, string>) => setAddress(values, true)

  const ready = Boolean(service && professional)
  const days = useBookableDays(profile.username, { month, professional: professionalId, service: serviceId }, { enabled: ready && profile.bookingOpen })
  const times = useFreeTimes(profile.username, { date, professional: professionalId, service: serviceId }, { enabled: ready && date !== '' && profile.bookingOpen })
  useEffect(() => {
    if (times.isError) toast.error('Erro', { description: 'Erro ao carregar horários disponíveis.' })
  }, [times.isError])
  // A chosen time that is no longer offered is cleared, with a warning.
  useEffect(() => {
    if (time && times.data && !times.data.times.includes(time)) {
      set({ time: '' })
      toast.warning('O horário escolhido não está mais disponível. Escolha outro.')
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- set is new each render; the check runs when the times or the time change
  }, [times.data, time])

  const isEnabled = (d: string) => {
    if (d < today || (lastDate && d > lastDate)) return false
    if (ready && days.data) return days.data.days.includes(d)
    return weekday(d) !== 0 // Sundays closed by default
  }

  // Open days whose times are all taken: "lotado", they lead to the waitlist.
  const isFull = (d: string) => Boolean(ready && days.data?.full.includes(d))
  // The date the waitlist starts from: the chosen one, else the month's first full (or free) day — never a closed one.
  const waitlistDate = date || days.data?.full[0] || days.data?.days[0] || ''

  return {
    service,
    professionals,
    professionalId,
    professional,
    date,
    time,
    ready,
    today,
    lastDate,
    month,
    setMonth,
    isEnabled,
    isFull,
    waitlistDate,
    times,
    /** Picks (or, with '', clears) some of service, professional, date and time, with the picks that depend on them. */
    pick: set,
    /** After a booking: a blank form (the address keeps what is not a pick, such as /booking's username). */
    restart: () => set({ service: '', professional: '', date: '', time: '' }),
  }
}
