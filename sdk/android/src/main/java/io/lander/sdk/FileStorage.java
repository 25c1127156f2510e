package io.lander.sdk;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.Charset;

/**
 * Each key in its own file of a directory (on Android: {@code context.getFilesDir()/lander}), written
 * to a temporary file and renamed, so a value is kept whole or not at all.
 */
public final class FileStorage implements Storage {
    private static final Charset UTF8 = Charset.forName("UTF-8");
    private final File dir;

    public FileStorage(File dir) {
        this.dir = dir;
    }

    private File fileOf(String key) {
        return new File(dir, key.replaceAll("[^A-Za-z0-9._-]", "_"));
    }

    @Override
    public synchronized String get(String key) throws IOException {
        InputStream in;
        try {
            in = new FileInputStream(fileOf(key));
        } catch (FileNotFoundException absent) {
            return null;
        }
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            for (int n; (n = in.read(buffer)) > 0; ) out.write(buffer, 0, n);
            return new String(out.toByteArray(), UTF8);
        } finally {
            in.close();
        }
    }

    @Override
    public synchronized void set(String key, String value) throws IOException {
        if (!dir.isDirectory() && !dir.mkdirs()) throw new IOException("cannot create " + dir);
        File target = fileOf(key);
        File temporary = new File(dir, target.getName() + ".tmp");
        OutputStream out = new FileOutputStream(temporary);
        try {
            out.write(value.getBytes(UTF8));
        } finally {
            out.close();
        }
        if (!temporary.renameTo(target)) throw new IOException("cannot write " + target);
    }

    @Override
    public synchronized void remove(String key) {
        fileOf(key).delete();
    }
}
