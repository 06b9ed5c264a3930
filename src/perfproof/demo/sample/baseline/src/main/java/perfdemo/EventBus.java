package perfdemo;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** Delivers events to registered listeners; most topics have no listener at all. */
public final class EventBus {

    /** A receiver of events. */
    public interface Listener {
        String onEvent(String event);
    }

    private final List<Listener> listeners = new ArrayList<>();

    public void register(Listener listener) {
        listeners.add(listener);
    }

    /** Delivers {@code event} to every listener and returns their acknowledgements. */
    public List<String> publish(String event) {
        return listeners.stream()
                .map(listener -> listener.onEvent(event))
                .filter(ack -> ack != null)
                .collect(Collectors.toList());
    }
}
