package shop.internal;

public class Holder {
    private static final String HIDDEN = "hidden-topic";
    public static final int PARTITIONS = 3;
    public static final String COMPUTED = System.getenv("TOPIC");
    public final String instanceTopic = "instance-topic";
    public static final String DB_PASSWORD = "s3cret";
}
