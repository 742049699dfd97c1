! omp_ext: the in-code policy API for Fortran (ISO_C_BINDING).
!
!   use omp_ext
!   ierr = omp_set_ht_policy(omp_ht_policy_spn)
!   if (ierr /= omp_ext_success) print *, omp_ext_strerror(ierr)
!
! Same functions, values and semantics as include/omp_ext.h, section
! "In-code policy (OpenMP-style API)"; thread numbers as omp_get_thread_num().
module omp_ext
  use, intrinsic :: iso_c_binding, only: c_int, c_ptr, c_char, c_size_t, c_f_pointer, &
                                         c_associated, c_long, c_double
  implicit none
  private

  ! omp_ht_policy_t, omp_ext_error_t, omp_ext_format_t: generated at build
  ! time from the C lists (omp_ext/tools/gen_fortran.c).
  include 'omp_ext_constants.inc'

  public :: omp_set_ht_policy, omp_set_ht_policy_num_threads, omp_get_ht_policy
  public :: omp_get_ht_pu, omp_ht_rebind, omp_ext_strerror
  ! Capacity-weighted split (include/omp_ext/share.h).  Ranges are C's
  ! [begin, end): iterations begin+1 .. end in a 1-based Fortran loop.
  public :: omp_ext_share, omp_ext_team_weights, omp_ext_share_split
  public :: omp_ext_set_share_sigma, omp_ext_get_share_sigma
  ! The dynamic tail after the capacity-weighted head (share.h): one shared
  ! omp_ext_tail_t per loop, filled before the region.
  public :: omp_ext_tail_t, omp_ext_tail_init, omp_ext_tail_next
  ! Capacity-weighted work stealing (include/omp_ext/steal.h): the object is
  ! an opaque type(c_ptr) from omp_ext_steal_create(); thread numbers are
  ! omp_get_thread_num()'s (from 0).
  public :: omp_ext_steal_create, omp_ext_steal_destroy, omp_ext_steal_init
  public :: omp_ext_steal_init_weights, omp_ext_steal_next

  ! omp_ext_tail_t: head [begin, cut), tail [cut, end); taken is the calls' own.
  type, bind(C) :: omp_ext_tail_t
    integer(c_long) :: begin, cut, end, chunk
    integer(c_long) :: taken
  end type omp_ext_tail_t

  interface
    function omp_set_ht_policy(policy) bind(C, name="omp_set_ht_policy")
      import :: c_int
      integer(c_int), value :: policy
      integer(c_int) :: omp_set_ht_policy
    end function omp_set_ht_policy

    function omp_set_ht_policy_num_threads(policy, num_threads) &
        bind(C, name="omp_set_ht_policy_num_threads")
      import :: c_int
      integer(c_int), value :: policy, num_threads
      integer(c_int) :: omp_set_ht_policy_num_threads
    end function omp_set_ht_policy_num_threads

    function omp_get_ht_policy() bind(C, name="omp_get_ht_policy")
      import :: c_int
      integer(c_int) :: omp_get_ht_policy
    end function omp_get_ht_policy

    function omp_get_ht_pu(thread_num) bind(C, name="omp_get_ht_pu")
      import :: c_int
      integer(c_int), value :: thread_num
      integer(c_int) :: omp_get_ht_pu
    end function omp_get_ht_pu

    function omp_ht_rebind() bind(C, name="omp_ht_rebind")
      import :: c_int
      integer(c_int) :: omp_ht_rebind
    end function omp_ht_rebind

    ! Collective: every thread of the team calls it (share.h).
    function omp_ext_share(begin, end, my_begin, my_end) bind(C, name="omp_ext_share")
      import :: c_int, c_long
      integer(c_long), value :: begin, end
      integer(c_long), intent(out) :: my_begin, my_end
      integer(c_int) :: omp_ext_share
    end function omp_ext_share

    ! Collective; weights(1 + t) is thread t's weight.
    function omp_ext_team_weights(weights, n) bind(C, name="omp_ext_team_weights")
      import :: c_int, c_double
      real(c_double), intent(out) :: weights(*)
      integer(c_int), value :: n
      integer(c_int) :: omp_ext_team_weights
    end function omp_ext_team_weights

    ! Share t is [bounds(1 + t), bounds(2 + t)); bounds has n + 1 elements.
    function omp_ext_share_split(begin, end, weights, n, bounds) &
        bind(C, name="omp_ext_share_split")
      import :: c_int, c_long, c_double
      integer(c_long), value :: begin, end
      real(c_double), intent(in) :: weights(*)
      integer(c_int), value :: n
      integer(c_long), intent(out) :: bounds(*)
      integer(c_int) :: omp_ext_share_split
    end function omp_ext_share_split

    function omp_ext_set_share_sigma(sigma) bind(C, name="omp_ext_set_share_sigma")
      import :: c_int, c_double
      real(c_double), value :: sigma
      integer(c_int) :: omp_ext_set_share_sigma
    end function omp_ext_set_share_sigma

    function omp_ext_get_share_sigma(sigma) bind(C, name="omp_ext_get_share_sigma")
      import :: c_int, c_double
      real(c_double), intent(out) :: sigma
      integer(c_int) :: omp_ext_get_share_sigma
    end function omp_ext_get_share_sigma

    function omp_ext_tail_init(tail, begin, end, fraction, chunk) &
        bind(C, name="omp_ext_tail_init")
      import :: c_int, c_long, c_double, omp_ext_tail_t
      type(omp_ext_tail_t), intent(out) :: tail
      integer(c_long), value :: begin, end, chunk
      real(c_double), value :: fraction
      integer(c_int) :: omp_ext_tail_init
    end function omp_ext_tail_init

    ! 1: [lo, hi) is the caller's next chunk; 0: the tail is used up.
    function omp_ext_tail_next(tail, lo, hi) bind(C, name="omp_ext_tail_next")
      import :: c_int, c_long, omp_ext_tail_t
      type(omp_ext_tail_t), intent(inout) :: tail
      integer(c_long), intent(inout) :: lo, hi ! unchanged unless a chunk is given
      integer(c_int) :: omp_ext_tail_next
    end function omp_ext_tail_next

    function omp_ext_steal_create(nthreads, chunk, steal) bind(C, name="omp_ext_steal_create")
      import :: c_int, c_long, c_ptr
      integer(c_int), value :: nthreads ! 1 .. huge(0_c_int); others: omp_ext_err_invalid
      integer(c_long), value :: chunk
      type(c_ptr), intent(out) :: steal
      integer(c_int) :: omp_ext_steal_create
    end function omp_ext_steal_create

    subroutine omp_ext_steal_destroy(steal) bind(C, name="omp_ext_steal_destroy")
      import :: c_ptr
      type(c_ptr), value :: steal
    end subroutine omp_ext_steal_destroy

    ! Collective: every thread of the team calls it with the same arguments.
    function omp_ext_steal_init(steal, begin, end) bind(C, name="omp_ext_steal_init")
      import :: c_int, c_long, c_ptr
      type(c_ptr), value :: steal
      integer(c_long), value :: begin, end
      integer(c_int) :: omp_ext_steal_init
    end function omp_ext_steal_init

    function omp_ext_steal_init_weights(steal, begin, end, weights, n) &
        bind(C, name="omp_ext_steal_init_weights")
      import :: c_int, c_long, c_ptr, c_double
      type(c_ptr), value :: steal
      integer(c_long), value :: begin, end
      real(c_double), intent(in) :: weights(*)
      integer(c_int), value :: n
      integer(c_int) :: omp_ext_steal_init_weights
    end function omp_ext_steal_init_weights

    ! 1: [lo, hi) is the caller's next chunk; 0: no work left that it saw.
    function omp_ext_steal_next(steal, thread, lo, hi) bind(C, name="omp_ext_steal_next")
      import :: c_int, c_long, c_ptr
      type(c_ptr), value :: steal
      integer(c_int), value :: thread
      integer(c_long), intent(inout) :: lo, hi ! unchanged unless a chunk is given
      integer(c_int) :: omp_ext_steal_next
    end function omp_ext_steal_next

    function c_strerror(err) bind(C, name="omp_ext_strerror")
      import :: c_int, c_ptr
      integer(c_int), value :: err
      type(c_ptr) :: c_strerror
    end function c_strerror

    function c_strlen(s) bind(C, name="strlen")
      import :: c_ptr, c_size_t
      type(c_ptr), value :: s
      integer(c_size_t) :: c_strlen
    end function c_strlen
  end interface

contains

  !> One-line explanation of an omp_ext return code (omp_ext_strerror()).
  function omp_ext_strerror(err) result(msg)
    integer(c_int), intent(in) :: err
    character(len=:), allocatable :: msg
    type(c_ptr) :: p
    character(kind=c_char), pointer :: chars(:)
    integer :: i, n
    p = c_strerror(err)
    if (.not. c_associated(p)) then
      msg = ""
      return
    end if
    n = int(c_strlen(p))
    call c_f_pointer(p, chars, [n])
    allocate(character(len=n) :: msg)
    do i = 1, n
      msg(i:i) = chars(i)
    end do
  end function omp_ext_strerror

end module omp_ext
