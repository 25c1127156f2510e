package io.lander.sdk;

import java.util.ArrayList;
import java.util.List;

/** Timers that run only when the test moves the time. */
final class FakeClock implements Clock {
    long time;
    private final List<long[]> due = new ArrayList<long[]>();
    private final List<Runnable> tasks = new ArrayList<Runnable>();
    private long next;

    @Override
    public long now() {
        return time;
    }

    @Override
    public synchronized Object schedule(Runnable task, long delayMs) {
        long id = ++next;
        due.add(new long[] {time + Math.max(0, delayMs), id});
        tasks.add(task);
        return id;
    }

    @Override
    public synchronized void cancel(Object handle) {
        for (int i = 0; i < due.size(); i++) {
            if (due.get(i)[1] == (Long) handle) {
                due.remove(i);
                tasks.remove(i);
                return;
            }
        }
    }

    /** Moves to {@code target}, running each timer due on the way at its own time. */
    void advanceTo(long target) {
        for (;;) {
            int earliest = -1;
            synchronized (this) {
                for (int i = 0; i < due.size(); i++) {
                    if (due.get(i)[0] <= target && (earliest < 0 || due.get(i)[0] < due.get(earliest)[0])) earliest = i;
                }
                if (earliest < 0) break;
            }
            Runnable task;
            synchronized (this) {
                time = Math.max(time, due.get(earliest)[0]);
                due.remove(earliest);
                task = tasks.remove(earliest);
            }
            task.run();
        }
        time = Math.max(time, target);
    }

    /** The earliest timer's time, or null when none waits. */
    synchronized Long nextAt() {
        Long next = null;
        for (long[] timer : due) if (next == null || timer[0] < next) next = timer[0];
        return next;
    }

    /** A process that ended: its timers never run. */
    synchronized void forget() {
        due.clear();
        tasks.clear();
    }
}
