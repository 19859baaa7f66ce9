/** Our own pages open in this tab; a payment provider's in a new one. */
export function go(url: string) {
  if (url.startsWith(window.location.origin)) window.location.assign(url)
  else window.open(url, '_blank', 'noopener')
}

export const planFeatures = ['Agendamentos ilimitados', 'Página de agendamento personalizada', 'Gestão completa de clientes', 'Relatórios e estatísticas', 'Suporte prioritário']
