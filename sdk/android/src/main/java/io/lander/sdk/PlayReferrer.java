package io.lander.sdk;

/** The Play install referrer as Play's Install Referrer API reports it. */
public final class PlayReferrer {
    /** The referrer string: the page's carrier for a Lander link. */
    public final String referrer;
    /** When the install began (seconds), on the device and on Play's server; 0 when unknown. */
    public final long installBeginSeconds;
    public final long installBeginServerSeconds;
    /** When the link was clicked (seconds); 0 when unknown. */
    public final long clickSeconds;

    public PlayReferrer(String referrer, long installBeginSeconds, long installBeginServerSeconds, long clickSeconds) {
        this.referrer = referrer;
        this.installBeginSeconds = installBeginSeconds;
        this.installBeginServerSeconds = installBeginServerSeconds;
        this.clickSeconds = clickSeconds;
    }
}
