package perfdemo;

import java.util.ArrayList;
import java.util.List;

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
        // Most topics have no listener: return before building a stream pipeline.
        if (listeners.isEmpty()) {
            return List.of();
        }
        List<String> acks = new ArrayList<>(listeners.size());
        for (Listener listener : listeners) {
            String ack = listener.onEvent(event);
            if (ack != null) {
                acks.add(ack);
            }
        }
        return acks;
    }
}
