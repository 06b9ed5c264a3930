package perfdemo.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;
import perfdemo.EventBus;
import perfdemo.Journal;

/** Publishes 16 events on a topic nobody listens to: the common case in production. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class EventBusBench {

    private final EventBus bus = new EventBus();
    private final Journal journal = new Journal();

    @Benchmark
    public void publishNoListeners(Blackhole bh) {
        for (int i = 0; i < 16; i++) {
            bh.consume(bus.publish("tick"));
        }
        journal.write("published 16 ticks");
        bh.consume(journal.length());
    }
}
