// Static marketing content shared by the landing and reviews pages (SPEC §1).
export const figures = [
  { value: '300+', label: 'profissionais ativos' },
  { value: '50k+', label: 'agendamentos por mês' },
  { value: '4,9', label: 'de 5 em mais de 120 avaliações' },
  { value: '98%', label: 'de satisfação' },
]

export const testimonials = [
  {
    name: 'Mariana Costa',
    profession: 'Psicóloga',
    text: 'Meus pacientes agendam sozinhos, até de madrugada. Parei de perder tempo no WhatsApp confirmando horário e ganhei horas na semana.',
  },
  {
    name: 'Rafael Oliveira',
    profession: 'Personal trainer',
    text: 'Mando o link no Instagram e a agenda enche. Os relatórios me mostram quais horários vendem mais. Vale cada centavo.',
  },
  {
    name: 'Juliana Mendes',
    profession: 'Nutricionista',
    text: 'Simples de configurar: em dez minutos eu já tinha serviços, horários e meu link público funcionando. Recomendo demais.',
  },
]

export const PRICE_LABEL = 'R$ 21,90'
