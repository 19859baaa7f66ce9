import { LegalPage } from './LegalPage'

export default function PolicyPage() {
  return (
    <LegalPage title="Política de Privacidade" updated="22/11/2026">
      <p>Esta política explica como o Agendei trata dados pessoais, em conformidade com a Lei Geral de Proteção de Dados (LGPD, Lei nº 13.709/2018).</p>
      <h2>Dados que coletamos</h2>
      <ul>
        <li>Do profissional (titular da conta): nome, e-mail, senha (guardada apenas de forma cifrada), palavra-chave de recuperação (também cifrada), dados do perfil e da agenda.</li>
        <li>Dos clientes que agendam: nome, e-mail, telefone e observações informados no formulário de agendamento.</li>
      </ul>
      <h2>Para que usamos</h2>
      <p>Para prestar o serviço de agendamento: exibir a página pública, registrar e confirmar agendamentos, enviar lembretes e relatórios ao profissional. Não vendemos dados pessoais.</p>
      <h2>Compartilhamento</h2>
      <p>Os dados de um agendamento são visíveis apenas ao profissional que o recebeu. Usamos fornecedores de infraestrutura (hospedagem, envio de e-mail e pagamento) apenas para operar o serviço.</p>
      <h2>Seus direitos</h2>
      <p>Você pode acessar, corrigir e excluir seus dados a qualquer momento. A exclusão da conta, feita pelo perfil, remove permanentemente todos os dados do profissional e dos seus agendamentos.</p>
      <h2>Segurança</h2>
      <p>Senhas e palavras-chave são armazenadas com hash argon2id; as sessões usam cookies protegidos; tentativas repetidas de acesso são limitadas.</p>
      <h2>Contato</h2>
      <p>Dúvidas sobre privacidade podem ser enviadas pela página de suporte.</p>
    </LegalPage>
  )
}
