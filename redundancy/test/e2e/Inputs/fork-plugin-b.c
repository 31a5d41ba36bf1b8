/* fork-after-dlclose.c's second plugin, built without vprof: thread-local
   data of the initial-exec model, which glibc places in the static TLS space
   the first plugin's probe slots had. */
__thread __attribute__((tls_model("initial-exec"))) unsigned char plugin_data[256];

void plugin_fill(void)
{
    for (int i = 0; i < 256; i++)
        plugin_data[i] = 0xAB;
}

int plugin_damaged(void)
{
    int n = 0;
    for (int i = 0; i < 256; i++)
        n += plugin_data[i] != 0xAB;
    return n;
}
