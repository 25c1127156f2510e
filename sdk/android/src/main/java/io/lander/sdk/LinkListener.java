package io.lander.sdk;

/**
 * Hears each deferred link once, whenever it arrives: the pending one at once, a late one when a retried
 * install brings it ({@link Lander#onLink(LinkListener)}). Called on the thread that got the link: post
 * to the main thread to route.
 */
public interface LinkListener {
    void onLink(DeferredLink link);
}
