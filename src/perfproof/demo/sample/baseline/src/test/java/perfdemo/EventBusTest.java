package perfdemo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class EventBusTest {

    @Test
    void nobodyListening() {
        assertTrue(new EventBus().publish("tick").isEmpty());
    }

    @Test
    void everyListenerIsAskedAndNullAcksAreDropped() {
        EventBus bus = new EventBus();
        bus.register(event -> "a:" + event);
        bus.register(event -> null);
        bus.register(event -> "c:" + event);
        assertEquals(List.of("a:tick", "c:tick"), bus.publish("tick"));
    }
}
