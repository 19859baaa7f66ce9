import { PlaceholderPage } from './PlaceholderPage'

// One module per later screen keeps each route lazily loaded on its own.
export const Clients = () => <PlaceholderPage title="Clientes" />
export const Agenda = () => <PlaceholderPage title="Agenda" />
export const AppointmentDetail = () => <PlaceholderPage title="Detalhes do agendamento" back="/agenda" />
export const Reports = () => <PlaceholderPage title="Relatórios" />
export const Subscribe = () => <PlaceholderPage title="Assinatura" />
export const SubscriptionSuccess = () => <PlaceholderPage title="Assinatura ativada" />
export const Notifications = () => <PlaceholderPage title="Notificações" />
