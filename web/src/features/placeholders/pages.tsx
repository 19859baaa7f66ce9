import { PlaceholderPage } from './PlaceholderPage'

// One module per later screen keeps each route lazily loaded on its own.
export const Subscribe = () => <PlaceholderPage title="Assinatura" />
export const SubscriptionSuccess = () => <PlaceholderPage title="Assinatura ativada" />
