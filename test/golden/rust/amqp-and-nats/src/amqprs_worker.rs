use amqprs::channel::{BasicConsumeArguments, BasicPublishArguments, Channel, QueueBindArguments, QueueDeclareArguments};
use amqprs::BasicProperties;

async fn run(ch: &Channel, keys: Vec<String>) {
    let exchange = std::env::var("EVENTS_EXCHANGE").unwrap_or("events".to_string());
    let args = BasicPublishArguments::new(&exchange, "user.created");
    ch.basic_publish(BasicProperties::default(), b"{}".to_vec(), args).await.unwrap();

    let q_args = QueueDeclareArguments::new("").exclusive(true).finish();
    let (q_name, _, _) = ch.queue_declare(q_args).await.unwrap().unwrap();
    for key in keys {
        ch.queue_bind(QueueBindArguments::new(&q_name, "audit", &key)).await.unwrap();
    }
    let consume = BasicConsumeArguments::default().queue(String::from(q_name)).finish();
    ch.basic_consume_rx(consume).await.unwrap();
}
