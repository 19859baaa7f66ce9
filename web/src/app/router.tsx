import { createBrowserRouter, type RouteObject } from 'react-router'
import { PageSpinner } from '@/components/ui/spinner'
import { loadPage, publicRoutes } from './public-routes'

// Every page is its own lazily loaded chunk: the public booking routes stay
// small because they never pull in the owner's screens.
const page = (load: () => Promise<{ default: React.ComponentType }>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
})

const pages: RouteObject[] = [
  { path: '/', ...page(() => import('@/features/landing/LandingPage')) },
  { path: '/login', ...page(() => import('@/features/auth/LoginPage')) },
  { path: '/signup', ...page(() => import('@/features/auth/SignupPage')) },
  { path: '/forgot-password', ...page(() => import('@/features/auth/ForgotPasswordPage')) },
  { path: '/account-success', ...page(() => import('@/features/auth/AccountSuccessPage')) },
  { path: '/convite/:token', ...page(() => import('@/features/auth/InvitePage')) },
  { path: '/policy', ...page(() => import('@/features/legal/PolicyPage')) },
  { path: '/terms', ...page(() => import('@/features/legal/TermsPage')) },
  { path: '/support', ...page(() => import('@/features/support/SupportPage')) },
  { path: '/reviews', ...page(() => import('@/features/reviews/ReviewsPage')) },
  // The public booking pages, from their one list (also the light build's).
  ...publicRoutes.map((r) => ({ path: r.path, ...page(loadPage(r)) })),
  { path: '/preview/:slug', ...page(() => import('@/features/public/PreviewPage')) },
  {
    ...page(() => import('./ProtectedLayout')),
    children: [
      { path: '/dashboard', ...page(() => import('@/features/dashboard/DashboardPage')) },
      { path: '/profile', ...page(() => import('@/features/profile/ProfilePage')) },
      { path: '/profile/mercadopago', ...page(() => import('@/features/profile/MercadoPagoReturnPage')) },
      { path: '/profile/google', ...page(() => import('@/features/profile/GoogleReturnPage')) },
      { path: '/services', ...page(() => import('@/features/services/ServicesPage')) },
      { path: '/add-service', ...page(() => import('@/features/services/AddServicePage')) },
      { path: '/configure-hours', ...page(() => import('@/features/hours/ConfigureHoursPage')) },
      { path: '/clients', ...page(() => import('@/features/clients/ClientsPage')) },
      { path: '/clients/:key', ...page(() => import('@/features/clients/ClientHistoryPage')) },
      { path: '/clients/:key/statement/:month', ...page(() => import('@/features/clients/StatementPage')) },
      { path: '/clients/:key/prontuario', ...page(() => import('@/features/records/RecordPage')) },
      { path: '/clients/:key/prontuario/copia', ...page(() => import('@/features/records/RecordCopyPage')) },
      { path: '/prontuarios', ...page(() => import('@/features/records/RecordsListPage')) },
      { path: '/agenda', ...page(() => import('@/features/agenda/AgendaPage')) },
      { path: '/appointment/:id', ...page(() => import('@/features/agenda/AppointmentPage')) },
      { path: '/reports', ...page(() => import('@/features/reports/ReportsPage')) },
      { path: '/reports/receita-saude', ...page(() => import('@/features/reports/ReceitaSaudePage')) },
      { path: '/subscribe', ...page(() => import('@/features/billing/SubscribePage')) },
      { path: '/subscription-success', ...page(() => import('@/features/billing/SubscriptionSuccessPage')) },
      { path: '/checkout/test/:id', ...page(() => import('@/features/billing/TestCheckoutPage')) },
      { path: '/notifications', ...page(() => import('@/features/notifications/NotificationsPage')) },
      { path: '/onboarding', ...page(() => import('@/features/onboarding/OnboardingPage')) },
      { path: '/professionals', ...page(() => import('@/features/team/ProfessionalsPage')) },
    ],
  },
  { path: '*', ...page(() => import('@/features/errors/NotFoundPage')) },
]

// The root route only gives every lazy page the same loading state.
export const routes: RouteObject[] = [{ HydrateFallback: PageSpinner, children: pages }]

export function createRouter() {
  return createBrowserRouter(routes, { hydrationData: undefined })
}
