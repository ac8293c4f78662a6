import java.util.Arrays;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;

public class Streams {
    void topology(StreamsBuilder builder) {
        KStream<String, String> input = builder.stream(Arrays.asList("clicks", "views"));
        input.mapValues(v -> v.toUpperCase()).to("clicks-upper");
        builder.table("users");
    }
}
