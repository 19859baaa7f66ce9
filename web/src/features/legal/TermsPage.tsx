import { PRICE_LABEL } from '@/lib/marketing'
import { LegalPage } from './LegalPage'

export default function TermsPage() {
  return (
    <LegalPage title="Termos de Uso" updated="22/11/2026">
      <p>Ao criar uma conta no Agendei você concorda com estes termos.</p>
      <h2>O serviço</h2>
      <p>O Agendei oferece uma agenda online, uma página pública de agendamento, gestão de clientes e relatórios para profissionais independentes e pequenas clínicas.</p>
      <h2>Teste grátis e assinatura</h2>
      <p>Toda conta começa com 7 dias de teste grátis, sem cartão de crédito. Depois do teste, o uso continua com a assinatura de {PRICE_LABEL} por mês.</p>
      <p>Os pagamentos são mensais e renovados automaticamente a cada mês. Você pode cancelar a qualquer momento; o acesso continua até o fim do período já pago, sem multa.</p>
      <h2>Responsabilidades</h2>
      <p>O profissional é responsável pelas informações que publica e pelo atendimento aos clientes que agendam pela sua página. O cliente é responsável pelos dados que informa ao agendar.</p>
      <h2>Conta e segurança</h2>
      <p>Guarde sua senha e sua palavra-chave de recuperação. Tentativas repetidas de acesso indevido são bloqueadas temporariamente.</p>
      <h2>Encerramento</h2>
      <p>Você pode excluir sua conta a qualquer momento pelo perfil; a exclusão é definitiva.</p>
    </LegalPage>
  )
}
