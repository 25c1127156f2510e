package io.lander.sdk;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/** The time and the timers the SDK waits on: {@link #SYSTEM}, or a test's. */
public interface Clock {
    long now();

    /** Runs {@code task} after {@code delayMs}; the handle cancels it. */
    Object schedule(Runnable task, long delayMs);

    void cancel(Object handle);

    /** The wall clock, and one daemon thread for the event queue's timers. */
    Clock SYSTEM = new Clock() {
        private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(new ThreadFactory() {
            @Override
            public Thread newThread(Runnable task) {
                Thread thread = new Thread(task, "lander-events");
                thread.setDaemon(true);
                return thread;
            }
        });

        @Override
        public long now() {
            return System.currentTimeMillis();
        }

        @Override
        public Object schedule(Runnable task, long delayMs) {
            return timers.schedule(task, delayMs, TimeUnit.MILLISECONDS);
        }

        @Override
        public void cancel(Object handle) {
            if (handle instanceof ScheduledFuture) ((ScheduledFuture<?>) handle).cancel(false);
        }
    };
}
