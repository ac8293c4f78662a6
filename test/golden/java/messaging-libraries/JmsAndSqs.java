import io.awspring.cloud.sqs.annotation.SqsListener;
import io.awspring.cloud.sqs.operations.SqsTemplate;
import org.springframework.jms.annotation.JmsListener;
import org.springframework.jms.core.JmsTemplate;

public class JmsAndSqs {
    private static final String INVOICES = "invoices";
    private JmsTemplate jmsTemplate;
    private SqsTemplate sqsTemplate;

    void send(String body) {
        jmsTemplate.convertAndSend(INVOICES, body);
        sqsTemplate.send("shipments-queue", body);
    }

    @JmsListener(destination = "payments")
    public void onPayment(String body) { }

    @SqsListener("returns-queue")
    public void onReturn(String body) { }
}
