"""A text's prose sentences: where they break, what is no sentence of it, and which say what to do."""

from __future__ import annotations

from procmem.answerers.clauses import is_prose, names_only, says_what_to_do, sentences


def test_no_sentence_ends_inside_code_or_a_link():
    text = ("When row security is enabled (with [`ALTER TABLE ... ENABLE ROW LEVEL SECURITY`](sql-altertable.html)), "
            "every access must pass a policy. Run `pg_ctl stop. Then` start it again.")
    assert sentences(text) == [
        "When row security is enabled (with `ALTER TABLE ... ENABLE ROW LEVEL SECURITY`), every access must pass a "
        "policy.", "Run pg_ctl stop. Then start it again."]


def test_who_wrote_the_page_is_no_sentence_of_it():
    text = ("This tutorial is based on text and images Copyright © 2002 Seth Burgess. The original tutorial can "
            "be found on the Internet. Hold down the Shift key to draw a straight line.")
    assert sentences(text) == ["Hold down the Shift key to draw a straight line."]


def test_a_bold_caption_cut_by_a_sentence_break_loses_its_stars():
    assert sentences("**Example 11.21. Mounting a Windows share**\n\nThe file **must** be private.") == [
        "Mounting a Windows share", "The file must be private."]


def test_a_sentence_goes_on_after_e_g_and_i_e():
    text = "Run the instrumented program (e.g. `./main`) to write a profile. Then merge the profiles (i.e. `*.profraw`) into one."
    assert sentences(text) == ["Run the instrumented program (e.g. ./main) to write a profile.",
                               "Then merge the profiles (i.e. *.profraw) into one."]


def test_a_sentence_ends_inside_the_quotation_it_closes():
    """Apache's rewrite guide: 'The dash (-) substitution means "do not rewrite." Combined with
    [L], …' was one sentence, and it said why in an answer about HTTPS redirects."""
    text = ('The dash (-) substitution means "do not rewrite." Combined with [L], it stops. The dialog asks '
            "“Keep these changes?” Press Keep to save them.")
    assert sentences(text) == ['The dash (-) substitution means "do not rewrite."', "Combined with [L], it stops.",
                               "The dialog asks “Keep these changes?”", "Press Keep to save them."]


def test_a_modal_in_a_relative_clause_says_what_a_thing_does_not_what_to_do():
    """libvirt's list of transports: "ext: Any external program which can make a connection to
    the remote machine …" was a step of "How do I connect virsh to a remote host over SSH?"."""
    assert not says_what_to_do("ext: Any external program which can make a connection to the remote machine.")
    assert not says_what_to_do("Users who must change their password see a prompt.")
    assert says_what_to_do("Note that you can make the change at any time.")
    assert says_what_to_do("The administrator must enable the feature first.")


def test_the_way_to_do_it_named_as_such_says_what_to_do():
    """git's FAQ answers "How should I undo it?" with "The usual way to deal with this is to use
    `git revert`": a step. What a word is to be is none."""
    assert says_what_to_do("The usual way to deal with this is to use `git revert`.")
    assert says_what_to_do("One option is to run the command twice.")
    assert says_what_to_do("A solution would be to restart the daemon.")
    # NTPsec's manual: "The recommended procedure is to change to the keys directory, … then run the program."
    assert says_what_to_do("The recommended procedure is to change to the keys directory, then run the program.")
    assert says_what_to_do("One method is to set the option in the configuration file.")
    assert not says_what_to_do("The option is to be used with care.")
    assert not says_what_to_do("The way Git stores objects is simple.")


def test_what_can_be_done_or_the_user_does_by_running_a_command_or_is_a_simple_matter_says_what_to_do():
    """A guide written as prose (the Debian Administrator's Handbook) says what to do in the
    passive, by the command that does it, as what the user does with a command, or as how little
    it takes."""
    assert says_what_to_do("Each user has their own crontab. It can be edited by running crontab -e.")
    assert says_what_to_do("Note that this option can be set with the help of debconf by running "
                           "dpkg-reconfigure -plow unattended-upgrades.")
    assert says_what_to_do("This can be done by creating a customlog.conf file that defines a new format.")
    assert says_what_to_do("Setting up a website for the falcot.org domain is therefore a simple matter of creating "
                           "the following file, then enabling the virtual host with a2ensite www.falcot.org.")
    assert says_what_to_do("The user generates a key pair on the client machine with ssh-keygen -t rsa.")
    assert says_what_to_do("The administrator creates the account with adduser --system foo.")
    # the way to do it, named as such
    assert says_what_to_do("The preferred approach uses a Redirect directive in a dedicated HTTP virtual host:")
    assert not says_what_to_do("The user logs in with their password.")  # no command
    assert not says_what_to_do("The daemon is started by running systemd.")  # what the system does
    assert not says_what_to_do("The list can be long by default.")


def test_what_must_be_done_to_a_thing_or_what_one_needs_to_do_says_what_to_do():
    """The Handbook's DHCP section says what to configure as what must be done to the file and
    its directives, and what one needs to do; what every administrator has to do sooner or
    later, or a relative clause's "needs to do", says nothing to do."""
    assert says_what_to_do("The first elements that need to be edited in the DHCP server configuration files "
                           "(/etc/dhcp/dhcpd.conf) are the domain name and the DNS servers.")
    assert says_what_to_do("If this server is alone on the local network, the authoritative directive must also "
                           "be enabled (or uncommented).")
    assert says_what_to_do("One also needs to create a subnet section describing the local network.")
    assert not says_what_to_do("One of the first actions an administrator needs to do on a new machine is to "
                               "create user accounts.")
    assert not says_what_to_do("In the Unix world, every administrator has to use the command line sooner or later.")
    # what you are able to do is what you can do (a finance program's help)
    assert says_what_to_do("At last, you are able to trigger the insertion from the main-window menu "
                           "Transaction/Process scheduled.")
    assert not says_what_to_do("Users are able to see the file.")
    assert says_what_to_do("Register one or several Remind transactions per payee.")
    assert says_what_to_do("Do the same for any other loan you make that day.")


def test_what_need_not_be_done_and_a_remark_in_brackets_say_nothing_to_do():
    """"… means that you don't have to create a file named git-daemon-export-ok" and "This
    invocation tries to reuse the address (this can save you some debugging)" are no steps;
    a step with a remark in brackets stays one."""
    assert not says_what_to_do("The option --export-all just means that you don't have to create a file "
                               "named git-daemon-export-ok in each exported repository.")
    assert not says_what_to_do("You do not need to restart the server.")
    assert says_what_to_do("You need to restart the server.")
    assert not says_what_to_do("This invocation tries to reuse the address if it is already taken (this "
                               "can save you some debugging).")
    assert says_what_to_do("Open Settings (press Windows+I).")
    assert says_what_to_do("Delete the file(s) you created.")


def test_what_to_know_is_nothing_to_do():
    """The Debian Reference's "In addition to these basic guide lines, you should know the
    following." led an answer; what one should know is no step, what one should do is."""
    assert not says_what_to_do("In addition to these basic guide lines, you should know the following.")
    assert not says_what_to_do("You must understand that the archive is signed.")
    assert says_what_to_do("In addition to these basic guide lines, you should check the following.")


def test_what_to_remember_to_do_is_a_step():
    """Borg's FAQ: "Backing up your entire root partition works just fine, but remember to exclude
    directories that make no sense to backup, such as /dev, /proc …"."""
    assert says_what_to_do("Backing up your entire root partition works just fine, but remember to exclude "
                           "directories that make no sense to backup, such as /dev, /proc, /sys, /tmp and /run.")
    assert says_what_to_do("The cache is rebuilt on the next run, so make sure to keep enough space free.")


def test_a_short_introduction_that_points_back_joins_the_sentence_it_points_to():
    text = ("Not to worry; the editor has a quit-and-throw-things-away command.  It is:\n\n"
            "Function keys are free to map. Example:\n\nRun: now. The result:")
    assert sentences(text) == ["Not to worry; the editor has a quit-and-throw-things-away command. It is:",
                               "Function keys are free to map. Example:"]  # "Run:" and "The result:" alone say nothing


def test_keys_with_what_each_does_are_no_list_of_names():
    assert names_only(["Post Office Protocol (POP)", "Outlook on the web", "`BookInPolicy`"])
    assert not names_only(["`]n`: move to the next note", "`[n`: move to the previous note"])
    # a notes application's supported screenshot tools: ImageMagick's "import" is a verb alone
    assert names_only(["import (ImageMagick)", "scrot", "boxcutter"])
    assert not names_only(["import the file", "scrot"])
    # its list of plugins: a name in capitals that opens with a verb names a feature
    assert names_only(["Arithmetic", "Insert Screenshot", "Print to Browser", "Spell Checker"])
    assert not names_only(["Insert the disc", "Print to Browser"])


def test_a_long_list_of_features_names_things_though_some_take_more_words():
    """Knot DNS's features: most are names, some longer; none says what to do. A list of steps
    in which most items are short names stays steps when one of them says what to do."""
    features = ["Primary and secondary server operation", "Internet class (IN)", "TCP and UDP protocols",
                "Minimal responses", "Dynamic zone updates", "DNSSEC with NSEC and NSEC3",
                "Name server identification using NSID or Chaos TXT records", "Zone journal storage",
                "Multithreaded DNSSEC zone signing and zone validation", "Response rate limiting"]
    assert names_only(features)
    assert not names_only(features[:6] + ["Open the Settings app and select Network", "Zone journal storage"])
    assert not names_only(features[6:] + ["Restart the server."])  # a short list: every item must name


def test_what_an_attacker_can_do_is_no_step():
    """Knot DNS's response rate limiting: "An attacker can use a DNS server … as an amplification
    source" is the threat; what an administrator can do stays a step."""
    assert not says_what_to_do("An attacker can use a DNS server (or multiple servers) as an amplification "
                               "source and can flood a victim with a large number of unsolicited DNS responses.")
    assert not says_what_to_do("A determined cracker can circumvent source address restrictions easily.")
    assert says_what_to_do("An administrator can add the key with keymgr.")


def test_what_holds_in_a_case_is_no_step_when_the_clause_after_it_has_a_subject_of_its_own():
    """NTPsec's "How Many Servers?": "If you have only one server, things are simple." and "If you
    have three servers, two can outvote a falseticker." were the steps of "How do I prefer one
    server over the others?"."""
    assert not says_what_to_do("If you have only one server, things are simple.")
    assert not says_what_to_do("If you have three servers, two can outvote a falseticker.")
    assert says_what_to_do("If the pool is running, recycle it.")
    assert says_what_to_do("When it fails, restart the service.")
    # KeePass's repair mode: a past participle describes the subject of the clause after the case
    assert not says_what_to_do("When no integrity checks are performed, corrupted/malicious data might be "
                               "incorporated into the database.")
    assert says_what_to_do("If the repair worked, proceed to the next step.")


def test_the_steps_a_sentence_lists_after_a_colon_say_what_to_do():
    """Django's "Serving static files in production" opens with its outline: "… consists of two
    steps: run the collectstatic command …, then arrange for …"; it is the answer's lead, not
    a later section's aside on a CDN."""
    assert says_what_to_do("The basic outline of putting static files into production consists of two steps: "
                           "run the collectstatic command when static files change, then arrange for the "
                           "collected static files directory to be moved to the static file server and served.")
    assert says_what_to_do("It takes three stages: first, install the package.")
    assert not says_what_to_do("The build has two steps: compilation and linking.")
    assert not says_what_to_do("Steps: 3")


def test_a_place_named_by_a_windows_variable_is_a_step_as_one_named_by_a_shell_variable():
    """Nextcloud's "Configuration File" names the file's place on each system; the Linux and macOS
    lines ("`$HOME/.config/Nextcloud/nextcloud.cfg`") were steps by their variable, the Windows
    one ("`%APPDATA%\\Nextcloud\\nextcloud.cfg`") was not, so "Where is the configuration file
    stored on Windows?" got every system's place but the one asked."""
    from procmem.answerers.steps import unit_steps
    from procmem.units import LogicUnit

    body = ("The client reads a configuration file. You can locate this file as follows:\n\n"
            "On Linux distributions: `$HOME/.config/Nextcloud/nextcloud.cfg`\n\n"
            "On Microsoft Windows systems: `%APPDATA%\\Nextcloud\\nextcloud.cfg`\n\n"
            "On macOS systems: `$HOME/Library/Preferences/Nextcloud/nextcloud.cfg`\n")

    steps = unit_steps(LogicUnit("Appendix", "", "Configuration File", body, [], {}))

    assert "On Microsoft Windows systems: %APPDATA%\\Nextcloud\\nextcloud.cfg" in steps, steps
    assert not says_what_to_do("Only 50% of the users and 30% of the admins saw the change.")


def test_what_a_desktops_help_has_the_user_do_with_the_mouse_says_what_to_do():
    for sentence in ("Right-click the process, and use the Change Priority menu to assign it a lower priority.",
                     "Double-click the archive to open it.", "Drag the Brightness slider to the right.",
                     "Uncheck Fire flash.", "Tick Encrypt the file list too.", "Scroll down to the Privacy section.",
                     "Insert the disc into the drive.", "Right click in the Terminal and select Paste.",
                     "Highlight the text you wish to copy, then right click on it and select Copy."):
        assert says_what_to_do(sentence), sentence
    for sentence in ("The ticket is closed once the fix is released.", "Dragons appear in the third level."):
        assert not says_what_to_do(sentence), sentence


def test_what_an_administrators_guide_has_typed_says_what_to_do():
    """Postfix's "Execute the command "newaliases" after changing the aliases file." is the step
    that makes the aliases take effect; "The daemon executes the command." tells what a program does."""
    assert says_what_to_do('Execute the command "newaliases" after changing the aliases file.')
    assert not says_what_to_do("The local delivery agent executes the command as the recipient.")


def test_what_can_be_done_by_pressing_or_clicking_says_what_to_do():
    """An image viewer's "Automatic Slideshow" says in the passive how to start one: "A slideshow
    … can be started from the image browser by pressing F5, …", and a notes application's tags
    "can be used anywhere in a page using the "@" prefix", and what its "Delete Page" does "when
    you select" it. Read as no action, the page's
    last sentence, "To exit the slideshow, press Escape or F5.", led "How do I run a slideshow of
    a folder?"."""
    for sentence in ("A slideshow of the currently selected images can be started from the image browser by "
                     "pressing F5, by clicking the slideshow toolbar icon, or by clicking View > Slideshow.",
                     "The panel can be opened by selecting Settings in the system menu.",
                     "Each entry can be removed by right-clicking it and choosing Delete.",
                     "Tags can be used anywhere in a page using the \"@\" prefix.",
                     "When you select \"Delete Page\" by default the page is moved to the trash."):
        assert says_what_to_do(sentence), sentence
    assert not says_what_to_do("The slideshow is stopped by the viewer when the last image is shown.")
    assert not says_what_to_do("The index can be read by other programs.")
    assert not says_what_to_do("When you select a page, its links are shown.")  # no control by its name


def test_a_verb_then_by_what_the_user_does_with_the_controls_says_what_to_do():
    """Gwenview's "View Mode Full Screen": "Access Full Screen Mode by clicking on the button …"
    opens with a verb no list of imperatives holds; read as no step, its section (part 1 of 2)
    counted half and "How do I see my pictures as a slideshow in Gwenview?" led with a
    configuration option that names slideshows."""
    for sentence in ("Access Full Screen Mode by clicking on the button that appears when you move the mouse "
                     "over the thumbnails, by pressing the Full Screen button on the taskbar.",
                     "Bring up the page list by pressing F9.",
                     "Gwenview shows the next image by pressing Space."):
        assert says_what_to_do(sentence), sentence
    assert not says_what_to_do("The window is closed by clicking the cross in its corner.")
    assert not says_what_to_do("It opens by clicking the icon.")
    assert not says_what_to_do("Images load faster by caching their thumbnails.")  # no control used


def test_a_goal_with_a_clause_on_what_it_leaves_then_what_to_do_says_what_to_do():
    """An image viewer's "File Save, Undo, Redo": "To save the modified image to a new location
    instead, leaving the original image unchanged, use Save As." was no step, so "How do I save
    it as a new file instead?" was answered with what happens when one leaves the editor."""
    assert says_what_to_do("To save the modified image to a new location instead, leaving the original image "
                           "unchanged, use Save As.")
    assert not says_what_to_do("To save the image, the viewer, showing a dialog, asks you for a name.")


def test_a_path_through_menus_and_a_name_of_two_words_written_as_one_are_prose():
    """"Choose Tools - AutoCorrect - AutoCorrect Options." counted its dashes and "AutoCorrect"
    as code, and could not lead an answer (LibreOffice's "How do I stop Writer from changing what I
    type automatically?" led with the last step, "Clear the "Apply border" check box.")."""
    assert is_prose("Choose Tools - AutoCorrect - AutoCorrect Options.")
    assert is_prose("Choose Image → Canvas Size.")
    assert is_prose("Open LibreOffice and choose File — New.")
    # commands, options and code names stay code
    assert not is_prose("Run Set-Mailbox -Identity User1 -MessageCopyForSentAsEnabled $True")
    assert not is_prose("ls -la | grep conf")
    assert not is_prose("- → -")


def test_a_path_through_menus_written_with_greater_than_signs_is_prose():
    """Evolution's help writes its menu paths "File > New > Task": the two marks counted as code,
    and "Click File > New > Task, or press Shift+Ctrl+T." could not lead "How do I add a task?",
    which led with the second step, "Select a task list in the List dropdown list."."""
    assert is_prose("Click File > New > Task, or press Shift+Ctrl+T.")
    assert is_prose("Click File > New > Contact List.")
    assert is_prose("Select Setup -> Domains -> Add.")
    # a command's output sent to a file is no menu path
    assert not is_prose("cat a > b > c")
    assert not is_prose("ls -l /etc > files.txt")



def test_where_in_the_menus_a_thing_is_done_says_what_to_do():
    """Evolution's help says where a setting lives in the passive: "This can be edited under
    Edit > Preferences > Mail Accounts > Edit > Identity > Optional Information." It was no step,
    and "How do I use a different signature for my work account?" got none of its path."""
    assert says_what_to_do("This can be edited under Edit > Preferences > Mail Accounts > Edit > Identity.")
    assert says_what_to_do("The trust list is located in Central Administration > Security > Manage Trust.")
    assert says_what_to_do("It can be found in Exchange Admin Center > Mail flow > Remote domains.")
    assert says_what_to_do("The option is located in Tools → Options.")
    # a place that is no path of menus
    assert not says_what_to_do("Configuration files are stored in the /etc folder.")
    assert not says_what_to_do("The value is set in the <file> tag.")
    assert not says_what_to_do("The limit is set in the file when x > 5 and y > 2.")
