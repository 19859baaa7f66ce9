import type { operations } from './schema'
import { publicKeys } from './public-keys'

type Query<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>
type AppointmentFilters = Query<'listAppointments'>
type ReportFilters = Query<'getReports'>

/**
 * Every query key of the app, in one place. Keys nest (an appointment's key
 * starts with the appointments key), so invalidating a prefix refreshes every
 * screen built from it. Mutations invalidate through these, never by string.
 */
export const queryKeys = {
  config: ['config'] as const,
  me: ['me'] as const,
  profile: ['profile'] as const,
  usernameAvailability: (username: string) => ['username-availability', username] as const,
  setup: ['setup-status'] as const,
  services: ['services'] as const,
  professionals: ['professionals'] as const,
  members: ['members'] as const,
  // The health record (issue 43): a client's record, its access log, the practice's templates, the owner's professional.
  records: {
    all: ['records'] as const,
    of: (client: string) => ['records', 'client', client] as const,
    log: (id: string) => ['records', 'log', id] as const,
    copy: (id: string) => ['records', 'copy', id] as const,
    templates: ['records', 'templates'] as const,
    self: ['records', 'self'] as const,
    team: ['records', 'team'] as const,
    // The acting professional's records with their retention dates, and what is shared with them.
    list: ['records', 'list'] as const,
    shared: ['records', 'shared'] as const,
  },
  availability: ['availability'] as const,
  professionalHours: (id: string) => ['professional-hours', id] as const,
  scheduleRules: ['schedule-rules'] as const,
  daysOff: ['days-off'] as const,
  holidays: {
    all: ['holidays'] as const,
    year: (year: number) => ['holidays', year] as const,
  },
  schedule: {
    all: ['schedule'] as const,
    range: (q: Query<'getSchedule'>) => ['schedule', q] as const,
  },
  blocks: {
    all: ['blocks'] as const,
    range: (from: string, to: string) => ['blocks', from, to] as const,
  },
  dashboard: ['dashboard'] as const,
  appointments: {
    all: ['appointments'] as const,
    list: (filters: AppointmentFilters) => ['appointments', 'list', filters] as const,
    detail: (id: string) => ['appointments', 'detail', id] as const,
    // Free times depend on every appointment: under the same prefix, so any change reads them again.
    freeTimes: (q: Query<'getOwnerFreeTimes'>) => ['appointments', 'free-times', q] as const,
    // The grid carries appointments, hours and blocks: read again whenever the book changes.
    grid: (q: Query<'getAgendaGrid'>) => ['appointments', 'grid', q] as const,
    // A date's waitlist: its offers follow the book's changes (a cancellation offers, a claim books).
    waitlist: (date: string) => ['appointments', 'waitlist', date] as const,
    // Deposits change with the book (a booking, an expiry, a payment): under the same prefix.
    deposit: (id: string) => ['appointments', 'deposit', id] as const,
    pendingDeposits: ['appointments', 'pending-deposits'] as const,
    // 'Pago' / 'A receber' follows the book too (a deposit received pays a session).
    payment: (id: string) => ['appointments', 'payment', id] as const,
  },
  pix: ['pix'] as const,
  receiptSettings: ['receipt-settings'] as const,
  // Receipts follow the book (a payment marked, a deposit received): under the appointments' prefix.
  receipts: (month: string) => ['appointments', 'receipts', month] as const,
  waitlistSettings: ['waitlist-settings'] as const,
  clients: {
    all: ['clients'] as const,
    page: (q: string, limit: number, offset: number) => ['clients', 'list', q, limit, offset] as const,
    search: (q: string) => ['clients', 'search', q] as const,
    history: (key: string) => ['clients', 'history', key] as const,
    statement: (key: string, month: string) => ['clients', 'statement', key, month] as const,
  },
  reports: {
    all: ['reports'] as const,
    filtered: (filters: ReportFilters) => ['reports', filters] as const,
  },
  notifications: ['notifications'] as const,
  calendarFeeds: ['calendar-feeds'] as const,
  calendars: ['calendars'] as const,
  messageTemplates: ['message-templates'] as const,
  whatsapp: ['whatsapp'] as const,
  whatsappConfirms: ['whatsapp-confirms'] as const,
  mercadopago: ['mercadopago'] as const,
  whatsappDeliveries: (appointmentId: string) => ['appointments', 'whatsapp', appointmentId] as const,
  reminders: ['reminders'] as const,
  reminderReach: ['reminders', 'reach'] as const,
  publicPage: ['public-page'] as const,
  subscription: ['subscription'] as const,
  // The public booking pages (their own module, so those pages load only their keys).
  ...publicKeys,
}

