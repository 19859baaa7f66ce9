import { PlaceholderPage, publicPlaceholder } from './PlaceholderPage'

// One module per later screen keeps each route lazily loaded on its own.
export const Services = () => <PlaceholderPage title="Serviços" />
export const AddService = () => <PlaceholderPage title="Novo Serviço" back="/services" />
export const ConfigureHours = () => <PlaceholderPage title="Configurar Horários" />
export const Clients = () => <PlaceholderPage title="Clientes" />
export const Agenda = () => <PlaceholderPage title="Agenda" />
export const AppointmentDetail = () => <PlaceholderPage title="Detalhes do agendamento" back="/agenda" />
export const Reports = () => <PlaceholderPage title="Relatórios" />
export const Subscribe = () => <PlaceholderPage title="Assinatura" />
export const SubscriptionSuccess = () => <PlaceholderPage title="Assinatura ativada" />
export const Notifications = () => <PlaceholderPage title="Notificações" />
export const Onboarding = () => <PlaceholderPage title="Configuração inicial" />
export const Professionals = () => <PlaceholderPage title="Profissionais" />
export const PublicProfile = publicPlaceholder('Agende seu horário')
export const PublicBookingForm = publicPlaceholder('Agendamento')
export const Preview = publicPlaceholder('Pré-visualização da página pública')
export const Booking = publicPlaceholder('Agendamento')
