/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * top_screen.c - `xen-uniprof top`'s full-screen view (ncurses).
 *
 * A view of lib/top/'s snapshots: show() copies each snapshot (its
 * pointers live only during the call) and draws it unless the display is
 * paused; poll(), every 50 ms between ticks with the guest running, reads
 * the keys, redraws after a resize, and stops the process for Ctrl-Z with
 * the terminal restored.  Every way out (q, -n, a signal, the domain's
 * end, an error) returns through xu_top_run() to one endwin(), so the
 * terminal is restored and the guest unpaused by the pause module
 * whatever ended the run.  The run's messages would be drawn over by the
 * screen: they go to the last line while it runs and through the
 * command's logger once the terminal is back.
 *
 * Keys: q quit; s self/total order; Up/Down (k/j) select a function;
 * Enter (e) its callers and callees, again to close; space (p) pause the
 * display (sampling goes on); + and - double and halve the frequency;
 * h (?) help; Ctrl-L redraw.
 *
 * top --all shows lib/top/'s merged snapshots in the same screen, polled
 * between the fleet's events instead of between ticks; the parent holds
 * no profile and the domains' processes keep their own frequency, so
 * Enter, + and - only say they belong to one domain's view.
 */
#include "config.h"

#include "top_view.h"

#ifndef HAVE_NCURSES

bool xu_top_screen_usable(void)
{
    return false;
}

enum xu_record_result xu_top_screen_run(const struct xu_top_config *cfg,
                                        struct xu_record_env *env, struct xu_log *log)
{
    (void)cfg;
    (void)env;
    xu_error(log, "this build has no full-screen view (configured without ncurses)");
    return XU_RECORD_USAGE;
}

enum xu_record_result xu_top_screen_run_all(const struct xu_top_all_config *cfg,
                                            struct xu_record_env *env, struct xu_log *log)
{
    return xu_top_screen_run(&cfg->top, env, log);
}

#else

#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <term.h>
#include <unistd.h>

#include "options.h"

#define POLL_S 0.05
#define MAX_MESSAGES 32
#define NAME_MAX_LEN 200
#define MIN_FREQUENCY 1.0

struct row {
    char name[NAME_MAX_LEN];
    double self, total;         /* percent */
};

struct rows {
    struct row *v;
    size_t n, cap;
};

struct screen {
    const struct xu_top_config *cfg;
    struct xu_log *out_log;     /* the command's, once the terminal is back */
    struct xu_log log;          /* the run's messages, kept for later */
    bool all;                   /* every guest: no callers, no frequency keys */
    bool on;                    /* curses owns the terminal */
    bool have;                  /* a snapshot was copied */
    bool frozen, help, expand;
    enum xu_top_sort sort;
    size_t selected;
    char selected_name[NAME_MAX_LEN];
    double frequency;           /* what the sampler is asked for */
    /* the last snapshot shown */
    char head[256], rate[256];
    bool symbols;
    struct rows table, callers, callees;
    char related[NAME_MAX_LEN]; /* the function callers and callees are of */
    /* the run's messages */
    enum xu_log_level levels[MAX_MESSAGES];
    char *messages[MAX_MESSAGES];
    size_t nr_messages, dropped;
    char status[256];
};

bool xu_top_screen_usable(void)
{
    const char *term = getenv("TERM");
    int err = 0;

    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO) || !term || !*term ||
        strcmp(term, "dumb") == 0)
        return false;
    /* a terminal type ncurses has no description of: plain text */
    if (setupterm(NULL, STDOUT_FILENO, &err) != OK)
        return false;
    del_curterm(cur_term);      /* initscr() sets it up again */
    return true;
}

/* ---- messages ---- */

static void screen_emit(void *ctx, enum xu_log_level level, const char *msg)
{
    struct screen *sc = ctx;

    snprintf(sc->status, sizeof(sc->status), "%s%s",
             level == XU_LOG_ERROR ? "error: " : level == XU_LOG_WARN ? "warning: " : "", msg);
    if (sc->nr_messages == MAX_MESSAGES) {
        free(sc->messages[0]);
        memmove(sc->messages, sc->messages + 1, (MAX_MESSAGES - 1) * sizeof(*sc->messages));
        memmove(sc->levels, sc->levels + 1, (MAX_MESSAGES - 1) * sizeof(*sc->levels));
        sc->nr_messages--;
        sc->dropped++;
    }
    sc->messages[sc->nr_messages] = strdup(msg);
    sc->levels[sc->nr_messages] = level;
    if (sc->messages[sc->nr_messages])
        sc->nr_messages++;
}

/* Once the terminal is back: the run's messages, through the command's logger. */
static void replay_messages(struct screen *sc)
{
    size_t i;

    if (sc->dropped)
        xu_info(sc->out_log, "(%zu earlier messages not kept)", sc->dropped);
    for (i = 0; i < sc->nr_messages; i++) {
        if (sc->out_log->emit && sc->levels[i] >= sc->out_log->min_level)
            sc->out_log->emit(sc->out_log->ctx, sc->levels[i], sc->messages[i]);
        free(sc->messages[i]);
    }
    sc->nr_messages = 0;
}

/* ---- copies of a snapshot ---- */

/* Room for n rows in dst.  0 or -1. */
static int reserve_rows(struct rows *dst, size_t n)
{
    if (n > dst->cap) {
        struct row *v = realloc(dst->v, n * sizeof(*v));

        if (!v)
            return -1;
        dst->v = v;
        dst->cap = n;
    }
    return 0;
}

static int copy_rows(struct rows *dst, const struct xu_top_table *t)
{
    size_t i;

    if (reserve_rows(dst, t->n) < 0)
        return -1;
    for (i = 0; i < t->n; i++) {
        snprintf(dst->v[i].name, sizeof(dst->v[i].name), "%s", t->rows[i].name);
        dst->v[i].self = t->samples ? 100.0 * (double)t->rows[i].self / (double)t->samples : 0;
        dst->v[i].total = t->samples ? 100.0 * (double)t->rows[i].total / (double)t->samples : 0;
    }
    dst->n = t->n;
    return 0;
}

/* ---- drawing ---- */

static void line_at(int y, int attr, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void line_at(int y, int attr, const char *fmt, ...)
{
    char buf[512];
    va_list ap;

    if (y < 0 || y >= LINES)
        return;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    move(y, 0);
    clrtoeol();
    if (attr)
        attron(attr);
    addnstr(buf, COLS > 0 ? COLS : 0);
    if (attr)
        attroff(attr);
}

static const char *const help_lines[] = {
    "xen-uniprof top: keys",
    "",
    "  q           quit (the guest keeps running)",
    "  s           order by self or by total share",
    "  Up, Down    select a function (also k, j)",
    "  Enter       its callers and callees, from the next refresh on (also e);",
    "              again to close",
    "  space       pause the display (also p); sampling goes on",
    "  +  -        double, halve the sampling frequency",
    "  Ctrl-L      redraw",
    "  h           this help (also ?); any other key closes it",
    "",
    "SELF%: samples in which the function is the innermost frame;",
    "TOTAL%: samples in which it appears at all.  Shares of the last interval.",
    "Ctrl-C quits, Ctrl-Z suspends (fg resumes): the guest is never left paused.",
};

static int draw_rows(const struct rows *r, int y, int last, size_t first, size_t sel, bool mark)
{
    size_t i;

    for (i = first; i < r->n && y <= last; i++, y++)
        line_at(y, mark && i == sel ? A_REVERSE : 0, "%7.1f %7.1f  %s", r->v[i].self,
                r->v[i].total, r->v[i].name);
    return y;
}

static void draw(struct screen *sc)
{
    int y, bottom = LINES - 1, table_last;
    size_t first = 0, i;

    erase();
    if (sc->help) {
        for (i = 0; i < sizeof(help_lines) / sizeof(help_lines[0]); i++)
            line_at((int)i, i == 0 ? A_BOLD : 0, "%s", help_lines[i]);
        refresh();
        return;
    }
    if (!sc->have) {
        line_at(0, A_BOLD, "xen-uniprof top: waiting for the first snapshot (%g s)...",
                sc->cfg->interval_s);
    } else {
        line_at(0, A_BOLD, "%s%s", sc->head, sc->frozen ? "   [PAUSED]" : "");
        line_at(1, 0, "%s", sc->rate);
    }
    line_at(2, 0, "sort: %s | %g Hz | window %g s | %dx%d | h: help, q: quit%s",
            sc->sort == XU_TOP_SORT_TOTAL ? "total" : "self", sc->frequency,
            sc->cfg->interval_s, COLS, LINES,
            sc->have && !sc->symbols ? " | no symbols: addresses" : "");
    line_at(4, A_REVERSE, "  SELF%%  TOTAL%%  FUNCTION");
    y = 5;
    table_last = bottom - 1;
    if (sc->expand)
        table_last = 5 + (bottom - 5) / 2 - 1;
    if (sc->table.n && sc->selected >= sc->table.n)
        sc->selected = sc->table.n - 1;
    if (table_last >= y && sc->selected > (size_t)(table_last - y))
        first = sc->selected - (size_t)(table_last - y);
    y = draw_rows(&sc->table, y, table_last, first, sc->selected, true);
    if (sc->expand && table_last + 1 < bottom) {
        y = table_last + 1;
        if (strcmp(sc->related, sc->selected_name) != 0) {
            line_at(y, A_BOLD, "callers and callees of %s: at the next refresh",
                    sc->selected_name);
        } else {
            int half = (bottom - y - 2) / 2;

            line_at(y++, A_BOLD, "callers of %s (share of its samples)", sc->related);
            y = draw_rows(&sc->callers, y, y + (half > 0 ? half : 0) - 1, 0, 0, false);
            line_at(y++, A_BOLD, "callees of %s", sc->related);
            draw_rows(&sc->callees, y, bottom - 1, 0, 0, false);
        }
    }
    line_at(bottom, 0, "%s", sc->status);
    refresh();
}

static void remember_selection(struct screen *sc)
{
    if (sc->selected < sc->table.n)
        snprintf(sc->selected_name, sizeof(sc->selected_name), "%s",
                 sc->table.v[sc->selected].name);
}

/* ---- the view ---- */

static int screen_show(void *ctx, const struct xu_top_snapshot *s)
{
    struct screen *sc = ctx;
    struct xu_top_table callers = { 0 }, callees = { 0 };
    char complete[32];
    size_t i;

    if (sc->frozen)
        return 0;   /* sampling goes on; the screen keeps what it shows */
    if (s->samples)
        snprintf(complete, sizeof(complete), "%.1f%%",
                 100.0 * (double)s->complete / (double)s->samples);
    else
        snprintf(complete, sizeof(complete), "-");
    snprintf(sc->head, sizeof(sc->head), "xen-uniprof top: domain %u (%s), %u vCPU%s, "
             "snapshot %lu at %.1f s", (unsigned)s->domid, s->label, s->vcpus,
             s->vcpus == 1 ? "" : "s", s->index, s->elapsed_s);
    snprintf(sc->rate, sizeof(sc->rate), "rate %.1f/s (%g Hz asked), %llu missed, paused "
             "median %.1f us, %llu samples, %s complete%s", s->rate, s->frequency,
             (unsigned long long)s->missed, (double)s->paused_median_ns / 1e3,
             (unsigned long long)s->samples, complete,
             s->paused_by_other ? "; paused by someone else (xl pause?)" : "");
    sc->symbols = s->symbols;
    if (copy_rows(&sc->table, s->table) < 0)
        return 1;
    sc->have = true;
    /* the selection follows its function through the new order */
    for (i = 0; sc->selected_name[0] && i < sc->table.n; i++)
        if (strcmp(sc->table.v[i].name, sc->selected_name) == 0) {
            sc->selected = i;
            break;
        }
    if (sc->expand && sc->selected_name[0]) {
        if (xu_top_relatives(s->profile, s->cache, sc->selected_name, &callers,
                             &callees) < 0) {
            xu_top_table_dispose(&callers);
            xu_top_table_dispose(&callees);
            return 1;
        }
        xu_top_table_sort(&callers, XU_TOP_SORT_TOTAL);
        xu_top_table_sort(&callees, XU_TOP_SORT_TOTAL);
        /* shares of the samples the function is in */
        if (copy_rows(&sc->callers, &callers) < 0 || copy_rows(&sc->callees, &callees) < 0) {
            xu_top_table_dispose(&callers);
            xu_top_table_dispose(&callees);
            return 1;
        }
        snprintf(sc->related, sizeof(sc->related), "%s", sc->selected_name);
        xu_top_table_dispose(&callers);
        xu_top_table_dispose(&callees);
    }
    draw(sc);
    return 0;
}

static void suspend_screen(void *ctx)
{
    (void)ctx;
    endwin();
}

static void resume_screen(void *ctx)
{
    struct screen *sc = ctx;

    refresh();
    clearok(curscr, TRUE);
    draw(sc);
}

static void resize_screen(struct screen *sc)
{
    struct winsize ws;

    /* resizeterm() queues a KEY_RESIZE, which only redraws */
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0 &&
        (ws.ws_row != LINES || ws.ws_col != COLS))
        resizeterm(ws.ws_row, ws.ws_col);
    clearok(curscr, TRUE);
    draw(sc);
}

/* A key of the one-domain view pressed in --all's. */
static void one_domain_only(struct screen *sc, const char *what)
{
    snprintf(sc->status, sizeof(sc->status), "%s: in one domain's view only "
             "(xen-uniprof top DOMAIN)", what);
}

static int screen_poll(void *ctx, enum xu_top_sort *sort, double *frequency_hz)
{
    struct screen *sc = ctx;
    bool redraw = false;
    int ch;

    xu_top_suspend_if_asked(suspend_screen, resume_screen, sc);
    if (xu_top_resized())
        resize_screen(sc);
    while ((ch = getch()) != ERR) {
        if (sc->help) {
            if (ch == 12)   /* Ctrl-L: the help again, whole */
                clearok(curscr, TRUE);
            else
                sc->help = false;   /* any other key closes it */
            redraw = true;
            continue;
        }
        switch (ch) {
        case 'q':
        case 'Q':
            return 1;
        case 's':
            sc->sort = sc->sort == XU_TOP_SORT_SELF ? XU_TOP_SORT_TOTAL : XU_TOP_SORT_SELF;
            *sort = sc->sort;
            break;
        case KEY_UP:
        case 'k':
            if (sc->selected > 0)
                sc->selected--;
            remember_selection(sc);
            break;
        case KEY_DOWN:
        case 'j':
            if (sc->selected + 1 < sc->table.n)
                sc->selected++;
            remember_selection(sc);
            break;
        case '\n':
        case '\r':
        case KEY_ENTER:
        case 'e':
            if (sc->all) {
                one_domain_only(sc, "callers and callees");
                break;
            }
            remember_selection(sc);
            sc->expand = !sc->expand && sc->selected_name[0];
            break;
        case ' ':
        case 'p':
            sc->frozen = !sc->frozen;
            break;
        case '+':
        case '=':
        case '-':
            if (sc->all)
                one_domain_only(sc, "a frequency change");
            else if (ch != '-' && sc->frequency * 2 <= XU_MAX_FREQUENCY)
                sc->frequency *= 2;
            else if (ch == '-' && sc->frequency / 2 >= MIN_FREQUENCY)
                sc->frequency /= 2;
            *frequency_hz = sc->frequency;
            break;
        case 'h':
        case '?':
            sc->help = true;
            break;
        case 12:    /* Ctrl-L */
            clearok(curscr, TRUE);
            break;
        case KEY_RESIZE:    /* the size is already ncurses's */
            clearok(curscr, TRUE);
            break;
        default:
            continue;
        }
        redraw = true;
    }
    if (redraw)
        draw(sc);
    return 0;
}

/* The terminal taken, the run's messages kept: 0, or -1 (logged). */
static int screen_open(struct screen *sc, const struct xu_top_config *cfg,
                       struct xu_record_env *env, struct xu_log *log)
{
    memset(sc, 0, sizeof(*sc));
    sc->cfg = cfg;
    sc->out_log = log;
    sc->sort = cfg->sort;
    sc->frequency = cfg->record.frequency;
    sc->log.emit = screen_emit;
    sc->log.ctx = sc;
    sc->log.min_level = log->min_level;
    if (!initscr()) {
        xu_error(log, "cannot start the full-screen view; try -b");
        return -1;
    }
    env->log = &sc->log;
    sc->on = true;
    cbreak();               /* keys at once, Ctrl-C and Ctrl-Z still signals */
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    curs_set(0);
    draw(sc);
    return 0;
}

/* The terminal restored, then the run's messages through the command's logger. */
static void screen_close(struct screen *sc, struct xu_record_env *env)
{
    endwin();
    sc->on = false;
    env->log = sc->out_log;
    replay_messages(sc);
    free(sc->table.v);
    free(sc->callers.v);
    free(sc->callees.v);
}

enum xu_record_result xu_top_screen_run(const struct xu_top_config *cfg,
                                        struct xu_record_env *env, struct xu_log *log)
{
    struct screen sc;
    struct xu_top_view view = { .show = screen_show, .poll = screen_poll, .poll_s = POLL_S };
    enum xu_record_result r;

    if (screen_open(&sc, cfg, env, log) < 0)
        return XU_RECORD_FAILURE;
    view.ctx = &sc;
    r = xu_top_run(cfg, env, &view);
    screen_close(&sc, env);
    return r;
}

/* ---- every guest ---- */

static int screen_show_all(void *ctx, const struct xu_top_all_snapshot *s)
{
    struct screen *sc = ctx;
    size_t i, k = 0;

    if (sc->frozen)
        return 0;
    snprintf(sc->head, sizeof(sc->head), "xen-uniprof top --all: %zu domain%s, %llu samples, "
             "snapshot %lu at %.1f s", s->nr_domains, s->nr_domains == 1 ? "" : "s",
             (unsigned long long)s->samples, s->index, s->elapsed_s);
    sc->rate[0] = '\0';
    sc->symbols = true;
    for (i = 0; i < s->nr_domains; i++) {
        const struct xu_top_all_domain *d = &s->domains[i];
        size_t used = strlen(sc->rate);

        if (d->w)
            snprintf(sc->rate + used, sizeof(sc->rate) - used, "%s%.40s %u vCPU %.1f/s",
                     i ? "; " : "", d->name, d->w->vcpus, d->w->rate);
        else
            snprintf(sc->rate + used, sizeof(sc->rate) - used, "%s%.40s waiting", i ? "; " : "",
                     d->name);
        /* one line saying why, on the status line */
        if (d->w && !d->w->symbols)
            snprintf(sc->status, sizeof(sc->status), "domain %u (%.40s): no symbols, functions "
                     "are shown by address: %.150s", (unsigned)d->domid, d->name, d->w->why);
    }
    if (reserve_rows(&sc->table, s->n) < 0)
        return 1;
    for (i = 0; i < s->n; i++, k++) {
        const struct xu_top_all_row *r = &s->rows[i];

        snprintf(sc->table.v[k].name, sizeof(sc->table.v[k].name), "%.60s%s%.130s", r->domain,
                 r->function ? ":" : "", r->function ? r->function : "");
        sc->table.v[k].self = s->samples ? 100.0 * (double)r->self / (double)s->samples : 0;
        sc->table.v[k].total = s->samples ? 100.0 * (double)r->total / (double)s->samples : 0;
    }
    sc->table.n = k;
    sc->have = true;
    for (i = 0; sc->selected_name[0] && i < sc->table.n; i++)
        if (strcmp(sc->table.v[i].name, sc->selected_name) == 0) {
            sc->selected = i;
            break;
        }
    draw(sc);
    return 0;
}

static void screen_ended_all(void *ctx, uint32_t domid, const char *name, int status,
                             bool stopped)
{
    struct screen *sc = ctx;

    if (stopped)
        return;
    if (status == XU_RECORD_DOMAIN_ENDED)
        xu_info(&sc->log, "domain %u (%s) ended", (unsigned)domid, name);
    else
        xu_warn(&sc->log, "domain %u (%s) is no longer sampled (exit status %d)",
                (unsigned)domid, name, status);
    draw(sc);
}

static int screen_poll_all(void *ctx, enum xu_top_sort *sort)
{
    struct screen *sc = ctx;
    double frequency = sc->frequency;

    return screen_poll(ctx, sort, &frequency);
}

enum xu_record_result xu_top_screen_run_all(const struct xu_top_all_config *cfg,
                                            struct xu_record_env *env, struct xu_log *log)
{
    struct screen sc;
    struct xu_top_all_view view = {
        .show = screen_show_all,
        .ended = screen_ended_all,
        .poll = screen_poll_all,
        .poll_s = POLL_S,
    };
    enum xu_record_result r;

    if (screen_open(&sc, &cfg->top, env, log) < 0)
        return XU_RECORD_FAILURE;
    sc.all = true;
    view.ctx = &sc;
    r = xu_top_all_run(cfg, env, &view);
    screen_close(&sc, env);
    return r;
}

#endif
