package io.lander.sdk.android;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import android.content.ClipData;
import android.content.ClipDescription;
import android.content.ClipboardManager;
import android.content.Context;
import android.content.pm.ApplicationInfo;
import android.content.res.Resources;
import android.net.ConnectivityManager;
import android.net.Network;
import android.util.DisplayMetrics;
import io.lander.sdk.DeviceFacts;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The Android adapter over a fake {@link Context} built on the compile-only stubs: the clipboard only
 * when it holds text, the screen in dp, state under {@code getFilesDir()/lander}, the stamp of the
 * APK at {@code sourceDir}, the default network's return heard only with {@code ACCESS_NETWORK_STATE}.
 */
public class AndroidPlatformTest {
    @Rule
    public TemporaryFolder folder = new TemporaryFolder();

    static final class Clip extends ClipboardManager {
        final String mime;
        final String text;

        Clip(String mime, String text) {
            this.mime = mime;
            this.text = text;
        }

        @Override
        public boolean hasPrimaryClip() {
            return mime != null;
        }

        @Override
        public ClipDescription getPrimaryClipDescription() {
            return new ClipDescription() {
                @Override
                public boolean hasMimeType(String type) {
                    return type.equals(mime);
                }
            };
        }

        @Override
        public ClipData getPrimaryClip() {
            return new ClipData() {
                @Override
                public int getItemCount() {
                    return 1;
                }

                @Override
                public Item getItemAt(int index) {
                    return new Item() {
                        @Override
                        public CharSequence getText() {
                            return text;
                        }
                    };
                }
            };
        }
    }

    private Context context(final ClipboardManager clipboard, final String apk) throws IOException {
        final File files = folder.newFolder();
        return new Context() {
            @Override
            public Context getApplicationContext() {
                return this;
            }

            @Override
            public Object getSystemService(String name) {
                return Context.CLIPBOARD_SERVICE.equals(name) ? clipboard : null;
            }

            @Override
            public File getFilesDir() {
                return files;
            }

            @Override
            public ApplicationInfo getApplicationInfo() {
                ApplicationInfo info = new ApplicationInfo();
                info.sourceDir = apk;
                return info;
            }

            @Override
            public Resources getResources() {
                return new Resources() {
                    @Override
                    public DisplayMetrics getDisplayMetrics() {
                        DisplayMetrics metrics = new DisplayMetrics();
                        metrics.widthPixels = 1080;
                        metrics.heightPixels = 2340;
                        metrics.density = 3;
                        return metrics;
                    }
                };
            }
        };
    }

    /** A connectivity service that keeps the callbacks registered with it. */
    static final class Connectivity extends ConnectivityManager {
        final List<NetworkCallback> callbacks = new ArrayList<NetworkCallback>();

        @Override
        public void registerDefaultNetworkCallback(NetworkCallback callback) {
            callbacks.add(callback);
        }
    }

    private Context networkContext(final Connectivity connectivity, final boolean granted) throws IOException {
        final Context plain = context(null, null);
        return new Context() {
            @Override
            public Context getApplicationContext() {
                return this;
            }

            @Override
            public Object getSystemService(String name) {
                return Context.CONNECTIVITY_SERVICE.equals(name) ? connectivity : null;
            }

            @Override
            public File getFilesDir() {
                return plain.getFilesDir();
            }

            @Override
            public ApplicationInfo getApplicationInfo() {
                return plain.getApplicationInfo();
            }

            @Override
            public Resources getResources() {
                return plain.getResources();
            }

            @Override
            public int checkCallingOrSelfPermission(String permission) {
                return granted && permission.equals("android.permission.ACCESS_NETWORK_STATE") ? 0 : -1;
            }
        };
    }

    @Test
    public void hearsTheNetworkComeBackOnlyWithAccessNetworkState() throws Exception {
        final int[] heard = {0};
        Runnable online = new Runnable() {
            @Override
            public void run() {
                heard[0]++;
            }
        };
        Connectivity granted = new Connectivity();
        new AndroidPlatform(networkContext(granted, true)).onOnline(online);
        assertEquals(1, granted.callbacks.size());
        granted.callbacks.get(0).onAvailable(new Network());
        assertEquals(1, heard[0]);
        Connectivity refused = new Connectivity();
        new AndroidPlatform(networkContext(refused, false)).onOnline(online);
        assertEquals(0, refused.callbacks.size());
    }

    @Test
    public void readsTheClipboardOnlyWhenItHoldsText() throws Exception {
        String link = "https://get.pebble-notes.example/i/Hq3x0v9gLwA8c2m5Yb7TnQ";
        assertEquals(link, new AndroidPlatform(context(new Clip("text/plain", link), null)).clipboard());
        assertNull(new AndroidPlatform(context(new Clip("image/png", link), null)).clipboard());
        assertNull(new AndroidPlatform(context(new Clip(null, null), null)).clipboard());
        assertNull(new AndroidPlatform(context(null, null)).clipboard());
    }

    @Test
    public void reportsTheScreenInDpAndKeepsStateInItsFilesFolder() throws Exception {
        Context context = context(null, null);
        AndroidPlatform platform = new AndroidPlatform(context);
        DeviceFacts device = platform.device();
        assertEquals("android", device.platform);
        assertEquals(360, device.width, 0);
        assertEquals(780, device.height, 0);
        assertEquals(3, device.scale, 0);
        platform.storage().set("lander:com.pebble.notes:install", "{}");
        assertEquals("{}", platform.storage().get("lander:com.pebble.notes:install"));
        assertEquals(1, new File(context.getFilesDir(), "lander").list().length);
    }

    @Test
    public void readsNoStampFromAnApkWithoutOne() throws Exception {
        File apk = folder.newFile("base.apk");
        java.nio.file.Files.write(apk.toPath(), "not a zip".getBytes("UTF-8"));
        assertNull(new AndroidPlatform(context(null, apk.getPath())).apkStamp());
    }
}
